# min: 3.8
class CM:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.log.append("exit")
        return False


def f(a, b, k, log):
    with CM(log):
        if a > 2:
            try:
                b = not b
            except KeyError:
                log.append(7)
            finally:
                log.append((a, b))
            if k % 3 == 1:
                log.append(10)
            elif a or b:
                b = not b
            elif a > 3:
                log.append(11)
            else:
                a = a + 1
        elif not b:
            log.append(12)
    return a, b, log


def main():
    return [f(a, b, k, []) for a in (0, 3, 5) for b in (0, 1) for k in (0, 1)]
