# min: 3.8
import contextlib

@contextlib.contextmanager
def tag(log, t):
    log.append("<" + t)
    yield t
    log.append(t + ">")

def main():
    log = []
    with tag(log, "a"):
        with tag(log, "b") as b:
            log.append(b)
        log.append("between")
    return log
