# min: 3.8
import contextlib

@contextlib.contextmanager
def tracked(log, i):
    yield
    log.append(i)

def main():
    log = []
    for i in range(4):
        with tracked(log, i):
            if i % 2:
                continue
            log.append("even")
    return log
