# min: 3.8
def check(C, *methods):
    mro = C.__mro__
    for method in methods:
        for B in mro:
            if method in B.__dict__:
                if B.__dict__[method] is None:
                    return "blocked"
                break
        else:
            return "missing"
    return "ok"


class A:
    def f(self):
        pass

    g = None


def main():
    return [check(A, "f"), check(A, "g"), check(A, "h"), check(A, "f", "__init__")]
