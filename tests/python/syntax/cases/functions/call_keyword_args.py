# min: 3.8
def f(a, b, c=0, *, d=1):
    return (a, b, c, d)

def main():
    return f(b=2, a=1), f(1, 2, d=4, c=3)
