# min: 3.8
def f(a, log):
    try:
        try:
            if a > 1:
                raise ValueError(a)
        finally:
            log.append(a)
            if a % 2 == 0:
                return None
    except ValueError:
        return "caught"


def main():
    log = []
    return [f(a, log) for a in range(5)], log
