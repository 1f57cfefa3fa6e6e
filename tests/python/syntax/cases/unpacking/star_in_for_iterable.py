# min: 3.9
def main():
    out = []
    for v in *[1, 2], 3:
        out.append(v)
    return out
