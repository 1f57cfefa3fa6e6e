# min: 3.8
def main():
    out = []
    for first, *rest in [(1, 2, 3), (4,), (5, 6)]:
        out.append((first, rest))
    return out
