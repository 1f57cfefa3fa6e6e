# min: 3.8
def main():
    a = [1, 2]
    b = (3,)
    return [*a, *b, 4], (*a, 0), [*range(2)]
