# min: 3.8
class Counter:
    def __init__(self):
        self.n = 0
        self.items = []

def main():
    c = Counter()
    c.n += 5
    c.n *= 2
    c.items += [1]
    return c.n, c.items
