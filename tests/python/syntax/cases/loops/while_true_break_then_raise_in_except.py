# min: 3.8
def f(k, log):
    try:
        log.append(1)
        raise KeyError(k)
    except KeyError:
        n = 2
        while True:
            n -= 1
            if n < 0:
                break
            if k > 1:
                raise ValueError(13)
    return n


def main():
    out = []
    for k in range(4):
        try:
            out.append(f(k, []))
        except ValueError as e:
            out.append(e.args)
    return out
