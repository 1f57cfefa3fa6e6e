# min: 3.8
# A walrus of a plain name inside a generator expression binds the
# enclosing function's variable: only `(x := v)` can write that store.
def scan(values):
    found = any((last := v) == 2 for v in values)
    return found, last


def main():
    return scan([1, 2, 3]), scan([5, 6])
