# min: 3.8
def probe(parent, fail_first, fail_second):
    try:
        if fail_first:
            raise OSError("first")
        s2 = parent
    except OSError:
        parent = parent + 1
        try:
            if fail_second:
                raise OSError("second")
            s2 = parent
        except OSError:
            return False
    return s2 == 1


def deep(n):
    try:
        raise KeyError(n)
    except KeyError:
        try:
            raise ValueError(n)
        except ValueError:
            try:
                raise TypeError(n)
            except TypeError:
                return n * 2
    return None


def main():
    return [probe(p, a, b) for p in (0, 1) for a in (False, True) for b in (False, True)], deep(21)
