# min: 3.12
flag = True

def choose[T](x: (T if flag else int), y: list[T] | None = None) -> (T if not flag else str):
    return x

class Either[L, R](dict if flag else list):
    pass

def main():
    return choose(1), choose.__annotations__["x"].__name__, Either.__mro__[1].__name__
