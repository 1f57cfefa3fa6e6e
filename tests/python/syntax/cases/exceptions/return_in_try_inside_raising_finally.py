# min: 3.8
def f(a, b, log):
    try:
        if a + b > 0:
            raise ValueError(1)
    finally:
        try:
            if a > -1 and b:
                return None
        except KeyError as e:
            log.append(e.args)
    return "after"


def main():
    out = []
    for a in (-1, 0, 1):
        for b in (0, 1):
            try:
                out.append(f(a, b, []))
            except ValueError as e:
                out.append(e.args)
    return out
