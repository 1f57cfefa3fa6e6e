# min: 3.8
# A test in a try's else clause right after a test in its body: their jumps
# line up like `not c and d`, but the else clause is outside the handler.
# (Found by tools/fuzz_programs.py, 3.13 seed 110432.)
def f(a, b, log):
    for k in range(1):
        try:
            if a + b > 1:
                continue
        except KeyError:
            log.append(1)
        else:
            if a % 2 == 0:
                raise KeyError(59)
    return 0


def main():
    out = []
    for a in (0, 1, 2):
        log = []
        try:
            out.append((f(a, 0, log), log))
        except KeyError as e:
            out.append(("KeyError", e.args, log))
    return out
