# min: 3.8
def main():
    return sum(x * x for x in range(10) if x % 2)
