# min: 3.8
x = [*()]
y = (1, *(), 2)
z = {*(), 3}

def f(*args):
    return args

def main():
    return x, y, z, f(*(), 4), [*(), *x]
