# min: 3.8
import contextlib

@contextlib.contextmanager
def ctx(log):
    log.append("in")
    yield
    log.append("out")

def f(log):
    try:
        with ctx(log):
            return "value"
    finally:
        log.append("finally")

def main():
    log = []
    return f(log), log
