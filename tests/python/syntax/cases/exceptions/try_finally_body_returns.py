# min: 3.8
def attr(x, log):
    try:
        return x.real
    finally:
        log.append("done")


def skip_odd(items, log):
    out = []
    for x in items:
        try:
            if x % 2:
                continue
            out.append(x)
        finally:
            log.append(x)
    return out


def main():
    log = []
    return [attr(3, log), skip_odd([1, 2, 3, 4], log), log]
