# min: 3.8
def main():
    out = []
    for c in "abc":
        out.append(c.upper())
    return out
