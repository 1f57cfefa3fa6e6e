# min: 3.10
def f(x):
    out = []
    match x:
        case 1:
            out.append(1)
        case [y]:
            out.append(y)
        case {"a": 1, **kw}:
            out.append(kw)
    out.append("after")
    return out

def main():
    return f(1), f([2]), f({"a": 1, "b": 2}), f(0)
