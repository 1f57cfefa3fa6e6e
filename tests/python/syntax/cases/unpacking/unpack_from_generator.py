# min: 3.8
def main():
    a, b, c = (i * 2 for i in range(3))
    return a, b, c
