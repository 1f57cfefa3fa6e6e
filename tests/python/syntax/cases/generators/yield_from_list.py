# min: 3.8
def main():
    yield from [1, 2]
    yield from "ab"
