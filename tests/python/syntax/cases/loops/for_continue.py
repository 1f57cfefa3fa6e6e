# min: 3.8
def main():
    total = 0
    for i in range(10):
        if i % 3:
            continue
        total += i
    return total
