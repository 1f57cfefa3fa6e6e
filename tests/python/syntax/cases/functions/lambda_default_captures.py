# min: 3.8
def main():
    x = 10
    f = lambda a, b=x * 2, *, c=[x]: (a, b, c)
    x = 0
    return f(1)
