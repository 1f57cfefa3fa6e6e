# min: 3.8
def main():
    total = 0
    for sq in (x * x for x in range(5) if x != 2):
        total += sq
    return total
