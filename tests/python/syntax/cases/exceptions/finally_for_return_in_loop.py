# min: 3.8
def f(a, b, log):
    n = 3
    while True:
        n -= 1
        if n < 0:
            break
        log.append(n)
        try:
            if not b:
                return log[-1:]
        finally:
            for k in range(3):
                if b:
                    return k


def main():
    return f(0, 0, []), f(0, 1, [])
