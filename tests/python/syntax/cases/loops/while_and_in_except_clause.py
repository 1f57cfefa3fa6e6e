# min: 3.8
# 3.12+ gives each exit of a loop in an except clause its own copy of the
# clause's end; falling into one must stay a `break`.
def f(a, b, log):
    try:
        if a > 2:
            raise ValueError(a)
        a = a + 1
    except ValueError as e:
        log.append(e.args)
        if a % 2 == 0:
            n = 2
            while n > 0 and (a > 1 and b):
                n -= 1
                log.append(n)
        elif not b:
            log.append(6)
        elif a and b:
            if -1 < a < 5:
                return b


def main():
    out = []
    for a in range(6):
        for b in (0, 1):
            log = []
            out.append((f(a, b, log), log))
    return out
