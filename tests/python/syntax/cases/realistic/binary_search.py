# min: 3.8
def bisect(xs, target):
    lo, hi = 0, len(xs)
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] < target:
            lo = mid + 1
        elif xs[mid] > target:
            hi = mid
        else:
            return mid
    return -lo - 1

def main():
    xs = [1, 3, 5, 7, 9]
    return [bisect(xs, t) for t in (1, 4, 9, 10)]
