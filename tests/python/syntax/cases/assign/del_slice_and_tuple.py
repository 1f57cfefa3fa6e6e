# min: 3.8
def main():
    xs = list(range(10))
    del xs[::3]
    (a, b) = (1, 2)
    del (a, b)
    return xs
