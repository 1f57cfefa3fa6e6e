# min: 3.8
# A filter that is a conditional expression jumps like an if/else of
# `continue`s; rebuilt as one filter (dataclasses' _hash_add has one).
class F:
    def __init__(self, hash, compare):
        self.hash, self.compare = hash, compare


def flds(fields):
    return [f for f in fields if (f.compare if f.hash is None else f.hash)]


def picked(xs, a):
    return {x for x in xs if (x > a if a else x < 0) if x != 3}


def negated(xs, a):
    return [x for x in xs if not (x if a else -x)]


def lazily(xs, a):
    return list(x for x in xs if (x % 2 if a else x % 3))


def main():
    fields = [F(None, True), F(None, False), F(True, False), F(False, True)]
    return ([fields.index(f) for f in flds(fields)], sorted(picked(range(-3, 6), 1)), sorted(picked(range(-3, 6), 0)),
            negated([0, 1, 2], 1), negated([0, 1, 2], 0), lazily(range(7), 1), lazily(range(7), 0))
