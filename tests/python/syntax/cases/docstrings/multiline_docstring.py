# min: 3.8
def f():
    """First line.

    Second paragraph with 'quotes' and "double quotes".
    """

def main():
    return f.__doc__, f()
