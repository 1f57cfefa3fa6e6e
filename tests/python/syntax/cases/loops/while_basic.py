# min: 3.8
def main():
    i = 0
    total = 0
    while i < 5:
        total += i
        i += 1
    return total
