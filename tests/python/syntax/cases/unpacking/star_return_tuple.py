# min: 3.8
def f(xs):
    return *xs, "end"

def main():
    return f([1, 2])
