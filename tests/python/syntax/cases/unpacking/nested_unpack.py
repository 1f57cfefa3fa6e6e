# min: 3.8
def main():
    (a, b), c, [d, e] = (1, 2), 3, (4, 5)
    return a + b + c + d + e
