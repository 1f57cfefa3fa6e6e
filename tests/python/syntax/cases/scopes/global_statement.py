# min: 3.8
total = 0

def add(n):
    global total
    total += n
    return total

def main():
    add(2)
    return add(3), total
