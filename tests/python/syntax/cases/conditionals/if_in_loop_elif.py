# min: 3.8
def main():
    out = []
    for i in range(6):
        if i % 3 == 0:
            out.append("fizz")
        elif i % 2 == 0:
            out.append("even")
        else:
            out.append(i)
    return out
