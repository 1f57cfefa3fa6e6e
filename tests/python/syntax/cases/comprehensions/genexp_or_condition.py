# min: 3.8
def main():
    items = [1, 2.0, None, 2, "2"]
    value = 2
    return sum(1 for v in items if v is value or v == value), [v for v in items if v is None or v == 1]
