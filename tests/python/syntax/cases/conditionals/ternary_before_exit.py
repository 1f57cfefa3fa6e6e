# min: 3.8
class Unsupported(Exception):
    pass


def check(ok, msg=None):
    if not ok:
        raise Unsupported("not supported" if msg is None else msg)
    return "ok"


def pick(a, b, flag):
    return max(a, b if flag else -b)


def tag(x, flag):
    return (x, "yes" if flag and x else "no")


def main():
    out = [check(True), pick(1, 5, True), pick(1, 5, False), tag(3, True), tag(0, True)]
    for msg in (None, "custom"):
        try:
            check(False, msg)
        except Unsupported as e:
            out.append(e.args)
    return out
