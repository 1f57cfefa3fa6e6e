# min: 3.8
def f(*args, **kwargs):
    return args, sorted(kwargs.items())

def main():
    return f(1, 2, x=3)
