# min: 3.8
import re

def main():
    text = "key=value"
    if (m := re.match(r"(\w+)=(\w+)", text)) and (k := m.group(1)):
        return k, m.group(2)
