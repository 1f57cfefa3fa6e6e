# min: 3.8
def main():
    a, b = c = (1, 2)
    return a, b, c
