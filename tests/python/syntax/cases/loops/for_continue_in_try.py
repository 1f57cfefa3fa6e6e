# min: 3.8
def main():
    out = []
    for v in ["1", "x", "3"]:
        try:
            n = int(v)
        except ValueError:
            continue
        out.append(n)
    return out
