# min: 3.8
def main():
    out = []
    for a, b, c in zip("ab", [1, 2], (True, False)):
        out.append(f"{a}{b}{c}")
    return out
