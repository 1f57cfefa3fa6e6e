# min: 3.8
def main():
    d = {}
    d[1, 2] = "pair"
    d[(3,)] = "single"
    return d
