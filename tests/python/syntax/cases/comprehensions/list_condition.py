# min: 3.8
def main():
    return [x for x in range(20) if x % 3 == 0 if x % 2 == 0]
