# min: 3.8
def pick(a, b):
    out = []
    for x in a:
        if not x:
            continue
        if b:
            out.append(x)
    return out


def split(args):
    out = []
    while args:
        if args[0] == "--":
            break
        if args[0].startswith("--"):
            out.append(args[0])
        else:
            out.append("-")
        args = args[1:]
    return out


def main():
    return pick([0, 1, 2], True), pick([1], False), split(["--a", "b", "--", "c"])
