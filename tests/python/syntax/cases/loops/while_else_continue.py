# min: 3.8
def main():
    out = []
    n = 0
    while n < 6:
        n += 1
        if n == 2:
            continue
        out.append(n)
    else:
        out.append("done")
    return out
