# min: 3.8
import contextlib

@contextlib.contextmanager
def tag(log):
    log.append("enter")
    yield
    log.append("exit")

def gen(log):
    with tag(log):
        yield 1
        yield 2

def main():
    log = []
    return list(gen(log)), log
