# min: 3.8
def main():
    n = 10
    steps = []
    while n != 1:
        if n % 2:
            n = 3 * n + 1
        else:
            n //= 2
        steps.append(n)
    return steps
