# min: 3.8
def main():
    a, b, c = 1, 2, 3
    a, b, c = c, a, b
    return a, b, c
