# min: 3.10
calls = []

def g(v):
    calls.append(v)
    return v

def f(v):
    match g(v):
        case 1:
            r = "one"
        case [a, b] if a == b:
            r = "pair"
        case {"k": 1 | 2 as k}:
            r = k
        case _:
            r = None
    return r

def main():
    return f(1), f([2, 2]), f({"k": 2}), f(5), calls
