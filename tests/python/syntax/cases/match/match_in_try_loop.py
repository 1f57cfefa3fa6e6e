# min: 3.10
def main():
    out = []
    for item in [1, "x", [2], None]:
        try:
            match item:
                case int(n):
                    out.append(n * 10)
                case [n]:
                    out.append(-n)
                case None:
                    raise LookupError("none")
                case _:
                    continue
        except LookupError as e:
            out.append(e.args)
    return out
