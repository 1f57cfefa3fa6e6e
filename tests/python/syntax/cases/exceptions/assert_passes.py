# min: 3.8
def main():
    x = 5
    assert x > 0
    assert isinstance(x, int), f"not int: {x!r}"
    return x
