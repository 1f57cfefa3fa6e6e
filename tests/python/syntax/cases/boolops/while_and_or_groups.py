# min: 3.8
def f(R, L, y, M):
    while (R <= L and y >= M or R > L and y > M):
        R += 1
        y -= 1
    return R, y


def index(seq, value, start=0, stop=None):
    i = start
    while stop is None or i < stop:
        try:
            v = seq[i]
        except IndexError:
            break
        if v is value or v == value:
            return i
        i += 1
    return -1


def doc(name, path, base):
    if (isinstance(name, str) and
        (name in ('errno', 'gc') or
         (path.startswith(base) and not path.startswith(base + 'x'))) and
        name not in ('xml', 'test')):
        where = 1
    else:
        where = None
    return where


def main():
    return [f(0, 3, 5, 2), f(5, 3, 9, 2), index([1, 2, 3], 3), index([1, 2], 9, 0, 5),
            doc("gc", "", ""), doc("os", "/b/y", "/b"), doc("os", "/bx", "/b"), doc(1, "", "")]
