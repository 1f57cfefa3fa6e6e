# min: 3.8
def main():
    out = []
    for i in range(8):
        if i < 3:
            out.append("low")
        elif i == 5:
            break
        else:
            continue
        out.append(i)
    return out
