# min: 3.8
def f(a, b):
    try:
        n = 3
        while True:
            n -= 1
            if n < 0:
                break
            a = a + 1
    except Exception:
        if b:
            raise KeyError(4)


def main():
    return f(1, 0), f(2, 1)
