# min: 3.8
import contextlib

@contextlib.contextmanager
def pair():
    yield 1, 2

def main():
    with pair() as (x, y):
        return x + y
