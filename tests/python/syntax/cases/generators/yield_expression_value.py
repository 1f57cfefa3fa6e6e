# min: 3.8
def g():
    x = yield
    y = yield x * 2
    yield x + y

def main():
    gen = g()
    next(gen)
    a = gen.send(5)
    b = gen.send(1)
    return a, b
