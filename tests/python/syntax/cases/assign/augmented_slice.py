# min: 3.8
def main():
    xs = [1, 2, 3, 4]
    xs[1:3] += [9]
    return xs
