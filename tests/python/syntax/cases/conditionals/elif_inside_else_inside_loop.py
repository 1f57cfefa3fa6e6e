# min: 3.8
def main():
    out = []
    for i in range(7):
        if i < 2:
            continue
        else:
            if i == 3:
                out.append("three")
            elif i == 5:
                break
            else:
                out.append(i)
    return out
