# min: 3.8
def f(a, b):
    try:
        if a:
            raise ValueError(1)
    except Exception:
        while True:
            if b == 0:
                break
            b -= 1
    else:
        b = not b
    finally:
        b = 5
    return b


def main():
    return f(0, 1), f(1, 2)
