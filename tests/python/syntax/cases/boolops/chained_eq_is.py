# min: 3.8
def main():
    a = b = [1]
    c = [1]
    return a is b is not c, a == b == c, a is b == c
