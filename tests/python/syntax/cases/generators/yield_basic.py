# min: 3.8
def main():
    yield 1
    yield 2
    yield 3
