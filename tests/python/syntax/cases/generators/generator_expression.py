# min: 3.8
def main():
    gen = (c * 2 for c in "ab")
    return next(gen), list(gen)
