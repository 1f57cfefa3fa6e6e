# min: 3.8
def main():
    found = False
    n = 0
    while n < 100:
        n += 7
        if n % 5 == 0:
            found = True
            break
    else:
        n = -1
    return found, n
