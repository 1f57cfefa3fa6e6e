# min: 3.8
def main():
    values = [y := 5, y ** 2]
    return values, y
