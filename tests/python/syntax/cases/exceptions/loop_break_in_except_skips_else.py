# min: 3.8
def f(a, b, log):
    try:
        if a:
            raise ValueError(1)
    except Exception:
        while True:
            if a < 0:
                break
            if b == 0:
                break
            b -= 1
    else:
        log.append("else")
    finally:
        log.append(2)
    return log


def main():
    return f(0, 1, []), f(1, 2, []), f(-1, 0, [])
