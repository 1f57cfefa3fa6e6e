# min: 3.8
def main():
    out = []
    for v in (1, 0, 2, None, 3):
        try:
            out.append(10 // v)
        except ZeroDivisionError as e:
            out.append("zero")
            continue
        except TypeError:
            break
        out.append("ok")
    return out
