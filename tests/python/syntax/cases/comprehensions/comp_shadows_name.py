# min: 3.8
def main():
    x = "outer"
    squares = [x * x for x in range(3)]
    return x, squares
