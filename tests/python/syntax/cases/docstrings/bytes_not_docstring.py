# min: 3.8
def f():
    b"bytes first"
    return 2

def main():
    return f.__doc__, f()
