# min: 3.8
def main():
    fs = [lambda y, x=x: x + y for x in range(3)]
    return [f(10) for f in fs]
