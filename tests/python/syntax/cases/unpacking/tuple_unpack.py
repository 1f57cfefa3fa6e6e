# min: 3.8
def main():
    a, b = 1, 2
    a, b = b, a
    return a, b
