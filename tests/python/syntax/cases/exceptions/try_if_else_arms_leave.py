# min: 3.8
class Sys:
    last_traceback = "tb"


def pick(sys):
    try:
        if hasattr(sys, "last_exc"):
            tb = sys.last_exc
        else:
            tb = sys.last_traceback
    except AttributeError:
        raise RuntimeError("none")
    n = 0
    while n < 2:
        n += 1
    return tb, n


def main():
    return pick(Sys())
