# min: 3.8
def keep(items):
    out = []
    for line in items:
        if not line or line.startswith("#"):
            continue
        out.append(line)
    return out


def keep_both(items):
    out = []
    for line in items:
        if line and not line.startswith("#"):
            out.append(line)
    return out


def main():
    items = ["a", "", "#c", "d"]
    return keep(items), keep_both(items)
