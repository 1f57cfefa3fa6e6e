# min: 3.8
def main():
    n = 0
    while True:
        n += 3
        if n > 10:
            break
    return n
