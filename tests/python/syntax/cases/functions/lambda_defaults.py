# min: 3.8
def main():
    f = lambda a, b=2, *args, c=3, **kw: (a, b, args, c, kw)
    return f(1), f(1, 5, 6, c=0, z=9)
