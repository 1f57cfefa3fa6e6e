# min: 3.8
def main():
    total = 0
    partial = [total := total + v for v in range(5)]
    return partial, total
