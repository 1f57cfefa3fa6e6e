# min: 3.8
def main():
    return sorted({a * b for a in range(4) for b in range(a, 4)})
