# min: 3.8
def f(a, b, /, c, *, d=4):
    return a + b + c + d

def main():
    try:
        f(a=1, b=2, c=3)
    except TypeError as e:
        err = "TypeError"
    return f(1, 2, 3), f(1, 2, c=0, d=0), err
