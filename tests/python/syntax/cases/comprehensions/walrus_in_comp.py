# min: 3.8
def main():
    data = [1, 5, 2, 8]
    out = [y for x in data if (y := x * 2) > 4]
    return out, y
