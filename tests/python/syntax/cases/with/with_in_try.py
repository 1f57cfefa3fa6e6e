# min: 3.8
import contextlib

@contextlib.contextmanager
def failing():
    yield
    raise RuntimeError("on exit")

def main():
    try:
        with failing():
            x = 1
    except RuntimeError as e:
        return x, e.args
