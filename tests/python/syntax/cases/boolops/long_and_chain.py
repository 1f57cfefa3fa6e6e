# min: 3.8
def f(a, b, c, d):
    if a and b and c and d:
        return "all"
    return "not all"

def main():
    return f(1, 1, 1, 1), f(1, 1, 0, 1)
