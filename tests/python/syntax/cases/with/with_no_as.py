# min: 3.8
import contextlib

@contextlib.contextmanager
def noted(log):
    log.append("in")
    yield
    log.append("out")

def main():
    log = []
    with noted(log):
        log.append("body")
    return log
