# min: 3.8
def main():
    a = 1; b = 2; c = a + b
    return c
