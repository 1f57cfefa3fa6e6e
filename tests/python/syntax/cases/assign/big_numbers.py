# min: 3.8
def main():
    return 2 ** 100, 0xFFFFFFFFFFFFFFFFFF, -(2 ** 63), 1_000_000, 0o777, 0b1010
