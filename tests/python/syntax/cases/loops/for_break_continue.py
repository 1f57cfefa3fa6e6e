# min: 3.8
def main():
    out = []
    for i in range(20):
        if i % 2:
            continue
        if i > 10:
            break
        out.append(i)
    return out
