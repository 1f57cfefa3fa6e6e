# min: 3.8
def stats():
    count = total = 0
    def add(v):
        nonlocal count, total
        count += 1
        total += v
        return total / count
    return add

def main():
    add = stats()
    add(2)
    return add(4)
