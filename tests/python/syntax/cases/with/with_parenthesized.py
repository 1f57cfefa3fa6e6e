# min: 3.10
import contextlib

@contextlib.contextmanager
def tag(t):
    yield t

def main():
    with (
        tag("x") as a,
        tag("y") as b,
    ):
        return a + b
