# min: 3.8
import contextlib

@contextlib.contextmanager
def tracked(log):
    log.append("enter")
    try:
        yield
    finally:
        log.append("exit")

def f(log):
    with tracked(log):
        return "returned"

def main():
    log = []
    return f(log), log
