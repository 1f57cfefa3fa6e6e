# min: 3.8
import contextlib

@contextlib.contextmanager
def tracked(log, i):
    log.append(("enter", i))
    yield
    log.append(("exit", i))

def main():
    log = []
    for i in range(5):
        with tracked(log, i):
            if i == 1:
                break
    return log
