# min: 3.8
def main():
    a = b = c = []
    a.append(1)
    return b, c, a is c
