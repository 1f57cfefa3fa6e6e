# min: 3.8
def f(a, b, c):
    return a and b or c

def main():
    return [f(a, b, c) for a in (0, 1) for b in (0, 2) for c in (0, 3)]
