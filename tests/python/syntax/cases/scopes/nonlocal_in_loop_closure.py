# min: 3.8
def main():
    total = 0
    def add(v):
        nonlocal total
        total += v
    for i in range(4):
        add(i)
    return total
