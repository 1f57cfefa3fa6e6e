# min: 3.8
def f(b, log):
    try:
        b = not b
    finally:
        try:
            log.append(1)
            if b:
                raise KeyError(b)
        except KeyError:
            log.append(2)
    return log


def main():
    return f(0, []), f(1, [])
