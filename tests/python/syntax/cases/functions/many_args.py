# min: 3.8
def f(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t):
    return a + t

def main():
    return f(*range(20))
