# min: 3.8
def rotate(a, i, n):
    a[i], a[n - 1] = a[n - 1], a[i]
    a[-i], a[i + 1] = a[i + 1], a[-i]
    return a


def main():
    return rotate([1, 2, 3, 4, 5], 1, 5)
