# min: 3.8
# A call whose one argument is a lambda is a call, not a decorator: the
# call must stay (it was lost once).
def twice(f):
    return lambda x: f(f(x))

def apply(f, x):
    return f(x)

add2 = twice(lambda x: x + 1)
kind = type(lambda: None)

def main():
    return [add2(1), kind.__name__, apply(lambda v: v * 3, 2), sorted([3, 1, 2], key=(lambda v: -v))]
