# min: 3.8
def drain(items):
    seen = []
    while items:
        x = items.pop()
        if x is None:
            continue
        if x < 0:
            seen.append(-x)
            continue
        seen.append(x)
    return seen


def count(n):
    total = 0
    while n > 0:
        n -= 1
        if n % 3:
            continue
        total += n
    return total


def main():
    return drain([1, None, -2, 3]), count(10)
