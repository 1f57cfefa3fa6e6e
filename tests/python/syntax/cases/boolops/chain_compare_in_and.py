# min: 3.8
def field(n, d, fmt):
    if 0 <= n < d:
        s = "small"
    elif fmt == 2 and -d <= n < d:
        s = "signed"
    else:
        s = "overflow"
    return s


def main():
    return [field(1, 8, 1), field(-3, 8, 2), field(-3, 8, 1), field(9, 8, 2)]
