# min: 3.8
def f(k):
    if k in {"a", "b"}:
        return 1
    elif k not in ("x", "y"):
        return 2
    return 3

def main():
    return f("a"), f("z"), f("x")
