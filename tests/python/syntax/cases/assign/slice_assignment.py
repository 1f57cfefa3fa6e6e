# min: 3.8
def main():
    xs = list(range(6))
    xs[1:3] = ["a"]
    xs[::2] = [0, 0, 0][: len(xs[::2])]
    del xs[-1:]
    return xs
