# min: 3.8
def main():
    out = []
    try:
        a, b = [1, 2, 3]
    except ValueError as e:
        out.append(str(e))
    try:
        a, b, *c = [1]
    except ValueError as e:
        out.append(str(e))
    return out
