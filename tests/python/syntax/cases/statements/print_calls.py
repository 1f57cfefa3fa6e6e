# min: 3.8
import sys

def main():
    print("hello", 1, None)
    print("to stderr", file=sys.stderr)
    print("no newline", end="")
    print()
