# min: 3.12
type Pair = tuple[int, int]
type Tree[T] = T | list[Tree[T]]

def main():
    return Pair.__name__, repr(Pair.__value__), Tree.__type_params__[0].__name__
