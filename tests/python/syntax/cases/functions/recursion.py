# min: 3.8
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)

def main():
    return fact(10)
