# min: 3.8
def f():
    x = 1
    "not the docstring"
    return x

def main():
    return f.__doc__, f()
