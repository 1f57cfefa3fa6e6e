# min: 3.8
def outer():
    base = 10
    def inner(x, y=base):
        return x + y + base
    return inner

def main():
    return outer()(1), outer()(1, 2)
