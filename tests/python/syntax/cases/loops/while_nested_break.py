# min: 3.8
def main():
    pairs = []
    i = 0
    while i < 4:
        j = 0
        while j < 4:
            if j > i:
                break
            pairs.append((i, j))
            j += 1
        i += 1
    return pairs
