# min: 3.8
calls = []


def load(m, fromlist):
    if not fromlist:
        return m
    if m:
        calls.append((m, fromlist))
    return None


def skip(src, remainder):
    if remainder != 0:
        buf = src[:remainder]
        if len(buf) < remainder:
            raise EOFError("unexpected end of data")
    return


def main():
    out = [load("a", []), load("b", ["x"]), load("", ["y"]), skip("abc", 2), skip("abc", 0)]
    try:
        skip("a", 5)
    except EOFError as e:
        out.append(e.args)
    return out, calls
