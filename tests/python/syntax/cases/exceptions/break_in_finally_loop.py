# min: 3.8
def main():
    out = []
    for i in range(3):
        try:
            out.append(i)
            if i == 1:
                break
        finally:
            out.append(-i)
    return out
