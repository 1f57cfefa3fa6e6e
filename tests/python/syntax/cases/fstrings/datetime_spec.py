# min: 3.8
import datetime

def main():
    d = datetime.date(2020, 1, 31)
    return f"{d:%Y/%m/%d}", f"{d!s:>12}"
