# min: 3.8
def main():
    x = 10
    x += 5
    x -= 3
    x *= 2
    x //= 5
    x **= 3
    x %= 7
    x <<= 2
    x >>= 1
    x |= 8
    x &= 12
    x ^= 5
    return x
