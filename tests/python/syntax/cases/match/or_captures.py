# min: 3.10
def f(x):
    match x:
        case [a, b] | (a, b, _):
            return a, b
        case {"k": v} | {"v": v}:
            return v
        case (1 | 2) as n if n > 1:
            return n
    return None

def main():
    return f([1, 2]), f((3, 4, 5)), f({"k": 1}), f({"v": 2}), f(2), f(1)
