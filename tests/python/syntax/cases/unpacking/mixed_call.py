# min: 3.8
def f(*args, **kwargs):
    return args, sorted(kwargs.items())

def main():
    pos = (2, 3)
    kw = {"k": 4}
    return f(1, *pos, 5, key="v", **kw)
