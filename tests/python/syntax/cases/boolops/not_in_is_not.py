# min: 3.8
def main():
    x = [1, 2]
    return 3 not in x, x is not None, not 1 in x
