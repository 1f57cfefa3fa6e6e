# min: 3.8
def f(*args, sep="-", end="!"):
    return sep.join(map(str, args)) + end

def main():
    return f(1, 2, 3), f("a", "b", sep="+", end="")
