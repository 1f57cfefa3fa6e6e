# min: 3.8
# One arm of the if runs off the end of the try body (to the finally) while
# the others go on inside it: the rest of the if chain must not run after
# the first arm. (Found by tools/fuzz_programs.py --expressions, seed 38.)
class CM:
    def __init__(self, log, tag, suppress=False):
        self.log, self.tag, self.suppress = log, tag, suppress

    def __enter__(self):
        self.log.append(("enter", self.tag))
        return self.tag

    def __exit__(self, kind, value, tb):
        self.log.append(("exit", self.tag, kind.__name__ if kind else None))
        return self.suppress


def f(a, b, log):
    k = 0
    try:
        if 0 < a < 2:
            n1 = 2
            while True:
                n1 -= 1
                if n1 < 0:
                    break
                try:
                    pass
                except (KeyError, ValueError):
                    pass
                for k in range(2):
                    pass
            try:
                try:
                    pass
                except (KeyError, ValueError):
                    pass
                n2 = 1
                while True:
                    n2 -= 1
                    if n2 < 0:
                        break
                    log.append((a, b, k))
                    log.append({x: x * a for x in range(k % 3)})
            finally:
                a, b = b if isinstance(b, int) else int(b), a
        elif not (a and not b):
            try:
                with CM(log, 35, False):
                    pass
            except ValueError:
                pass
        elif a in (3, 5) and b not in (0,):
            if k % 3 == 1:
                raise KeyError(57)
    finally:
        pass


def main():
    out = []
    for a in (-1, 0, 1, 2, 3, 5):
        for b in (0, 1, 2):
            log = []
            try:
                out.append((f(a, b, log), log))
            except Exception as e:
                out.append((type(e).__name__, log))
    return out
