# min: 3.8
# A with whose body always returns still goes on after it when __exit__
# suppresses the exception: that code must not be lost.
import contextlib

def first(items):
    with contextlib.suppress(IndexError):
        return items[0]
    return "empty"

def checked(x):
    with contextlib.suppress(ValueError):
        raise ValueError(x)
    return ("suppressed", x)

def main():
    return [first([1, 2]), first([]), checked(3)]
