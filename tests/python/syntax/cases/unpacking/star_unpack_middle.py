# min: 3.8
def main():
    first, *middle, last = range(6)
    return first, middle, last
