# min: 3.8
def repeat(n):
    def deco(fn):
        def wrapper(x):
            return [fn(x) for _ in range(n)]
        return wrapper
    return deco

@repeat(3)
def ident(x):
    return x

def main():
    return ident("z")
