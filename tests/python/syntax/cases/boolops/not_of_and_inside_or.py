# min: 3.8
# `a or not (b() and c)`: the inner and/or meets before the outer one; b()
# must run once (a rebuilt conditional expression once called it twice).
calls = []

def b(v):
    calls.append(v)
    return v

def f(a, v, c):
    return a or not (b(v) and c)

def main():
    out = [f(0, 1, 0), f(0, 1, 1), f(0, 0, 1), f(1, 1, 1)]
    return out, calls
