# min: 3.8
def main():
    data = iter([1, 2, 3])
    total = 0
    while True:
        try:
            total += next(data)
        except StopIteration:
            break
    return total
