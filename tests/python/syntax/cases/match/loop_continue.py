# min: 3.10
def main():
    out = []
    for v in [1, "a", (1, 2), None, 3.0]:
        match v:
            case int():
                out.append("i")
                continue
            case str() | bytes():
                out.append("s")
            case (a, b):
                out.append(a + b)
            case None:
                continue
        out.append("end")
    return out
