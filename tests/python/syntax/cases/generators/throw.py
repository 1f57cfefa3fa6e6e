# min: 3.8
def g():
    try:
        yield 1
    except ValueError as e:
        yield ("caught", e.args)
    yield "end"

def main():
    gen = g()
    first = next(gen)
    second = gen.throw(ValueError("x"))
    return first, second, next(gen)
