# min: 3.8
def main():
    yield 1, 2
    yield (3, 4)
    x = yield
    yield x
