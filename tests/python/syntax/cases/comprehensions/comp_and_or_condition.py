# min: 3.8
def main():
    return [n for n in range(30) if n % 3 == 0 and n % 5 == 0 or n == 7]
