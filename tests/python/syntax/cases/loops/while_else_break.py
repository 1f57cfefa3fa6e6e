# min: 3.8
def find(xs, t):
    i = 0
    while i < len(xs):
        if xs[i] == t:
            break
        i += 1
    else:
        return -1
    return i

def main():
    return find([4, 5, 6], 5), find([4], 9)
