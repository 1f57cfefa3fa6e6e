# min: 3.8
import itertools

def naturals():
    n = 0
    while True:
        yield n
        n += 1

def main():
    return list(itertools.islice(naturals(), 5))
