# min: 3.8
def f(xs):
    it = iter(xs)
    while True:
        x = next(it, None)
        if x is None:
            return "end"
        if x < 0:
            return x

def main():
    return f([1, -2, 3]), f([1, 2])
