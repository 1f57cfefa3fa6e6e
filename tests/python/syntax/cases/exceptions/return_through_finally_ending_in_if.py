# min: 3.8
# A return inside try/finally whose finally body ends in an if: 3.12+ copies
# the return into both arms of the finally copy that runs before it.
def f(a, b, log):
    try:
        if a:
            return b
    finally:
        if a > 1:
            log.append("big")
        else:
            log.append("small")
    return -1


def main():
    out = []
    for a in (0, 1, 2):
        log = []
        out.append((f(a, a * 10, log), log))
    return out
