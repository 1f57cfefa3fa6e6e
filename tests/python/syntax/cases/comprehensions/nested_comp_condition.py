# min: 3.8
def main():
    matrix = [[1, -2, 3], [-4, 5, -6]]
    return [[v for v in row if v > 0] for row in matrix if any(v > 3 for v in row)]
