# min: 3.8
def main():
    xs = [3, 1, 4, 1, 5]
    i = 0
    while i < len(xs) and xs[i] != 4:
        i += 1
    return i
