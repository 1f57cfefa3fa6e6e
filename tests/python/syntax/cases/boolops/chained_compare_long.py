# min: 3.8
def f(a, b, c, d):
    return a < b <= c < d

def main():
    return f(1, 2, 2, 3), f(1, 2, 3, 3), f(3, 2, 1, 0)
