# min: 3.8
# The finally body holds a `with`: its copy before the return keeps the
# returned value below the with's __exit__, and returns after the with.
class CM:
    def __init__(self, log, suppress):
        self.log, self.suppress = log, suppress

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, value, tb):
        self.log.append(("exit", kind.__name__ if kind else None))
        return self.suppress


def f(a, log):
    try:
        if a > 2:
            return a
        log.append("body")
    finally:
        with CM(log, False):
            log.append("finally")


def g(a, log):
    try:
        if a:
            return a * 2
    finally:
        with CM(log, True):
            raise ValueError(a)


def main():
    out = []
    for a in (1, 3):
        log = []
        out.append((f(a, log), log))
    for a in (0, 5):
        log = []
        out.append((g(a, log), log))
    return out
