# min: 3.10
import contextlib

def gen(items):
    for it in items:
        match it:
            case (str() | bytes()) as s:
                yield "text", s
            case [int(a), int(b)]:
                yield a + b
            case _:
                pass

def w(x):
    with contextlib.nullcontext():
        match x:
            case [1, *rest]:
                out = rest
            case _:
                out = None
    return out

def main():
    return list(gen(["a", b"b", [1, 2], 3])), w([1, 2, 3]), w(5)
