# min: 3.8
def main():
    i, j = 0, 10
    while i < 5 and j > 6 or i == 0:
        i += 1
        j -= 1
    return i, j
