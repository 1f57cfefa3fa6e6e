# min: 3.8
def f():
    return f.calls

f.calls = 5

def main():
    return f(), f.__name__, f.__qualname__
