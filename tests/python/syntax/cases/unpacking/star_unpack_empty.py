# min: 3.8
def main():
    a, *b = [1]
    return a, b
