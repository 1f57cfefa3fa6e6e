# min: 3.8
def f(x):
    def g():
        return x * 2
    x += 1
    return g()

def main():
    return f(5)
