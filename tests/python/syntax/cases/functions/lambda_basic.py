# min: 3.8
def main():
    add = lambda a, b: a + b
    return add(2, 3)
