# min: 3.8
def main():
    out = []
    while 1:
        out.append(len(out))
        if len(out) == 3:
            break
    return out
