# min: 3.8
def f(*args):
    return args

def main():
    xs = [1, 2]
    return f(*xs), f(0, *xs, 3), f(*xs, *"ab")
