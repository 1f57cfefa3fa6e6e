# min: 3.8
def main():
    pairs = [(1, "a"), (2, "b")]
    return [s * n for n, s in pairs], {s: n for n, s in pairs}
