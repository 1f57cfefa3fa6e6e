# min: 3.8
def f(a, b=2, c="three"):
    return a, b, c

def main():
    return f(1), f(1, 5), f(1, c="x")
