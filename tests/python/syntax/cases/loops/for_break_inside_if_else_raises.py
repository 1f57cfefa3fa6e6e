# min: 3.8
def rs(data, stripquotes, decode):
    if stripquotes:
        for q in (b'"', b"'"):
            if data.startswith(q):
                if not data.endswith(q):
                    raise ValueError("x")
                data = data[1:-1]
                break
        else:
            raise ValueError("no string quotes around %r" % data)
    if decode:
        data = data.decode("ascii")
    return data


def main():
    out = [rs(b'"abc"', True, True), rs(b"'x'", True, False), rs(b"plain", False, True)]
    for bad in (b'"abc', b"abc"):
        try:
            rs(bad, True, False)
        except ValueError as e:
            out.append(str(e))
    return out
