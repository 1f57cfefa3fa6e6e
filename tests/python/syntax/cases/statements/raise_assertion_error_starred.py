# min: 3.8
# `raise AssertionError(*args)` under a test: 3.8 compiles `assert` to the
# same jumps, but a starred message has no assert form.
def check(cond, *args):
    if not cond:
        raise AssertionError(*args)
    return "ok"


def main():
    out = [check(True, "x")]
    try:
        check(False, "bad", 2)
    except AssertionError as e:
        out.append(e.args)
    return out
