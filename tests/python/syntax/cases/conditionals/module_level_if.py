# min: 3.8
import sys
if sys.version_info >= (3, 0):
    MODE = "py3"
else:
    MODE = "py2"

def main():
    return MODE
