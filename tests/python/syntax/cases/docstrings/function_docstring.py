# min: 3.8
def f():
    """Function docstring."""
    return 1

def g():
    return "not a docstring"

def main():
    return f.__doc__, g.__doc__, f(), g()
