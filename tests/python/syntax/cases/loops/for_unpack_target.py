# min: 3.8
def main():
    out = {}
    for i, (k, v) in enumerate([("a", 1), ("b", 2)]):
        out[k] = (i, v)
    return out
