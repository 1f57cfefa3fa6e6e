# min: 3.8
def main():
    i = 0
    odd = []
    while i < 10:
        i += 1
        if i % 2 == 0:
            continue
        odd.append(i)
    return odd
