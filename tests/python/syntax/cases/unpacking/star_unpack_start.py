# min: 3.8
def main():
    *init, tail = "abc"
    return init, tail
