# min: 3.8
def inner():
    yield 1
    yield 2
    return "inner done"

def main():
    result = yield from inner()
    yield result
