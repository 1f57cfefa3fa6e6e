# min: 3.12
class Pair[T]:
    def __init__(self, first: T):
        self.first = first

    def with_second[U](self, second: U) -> tuple[T, U]:
        return (self.first, second)

    @staticmethod
    def make[V](v: V) -> "Pair[V]":
        return Pair(v)

def main():
    p = Pair.make(1)
    return p.with_second("x"), Pair.with_second.__type_params__[0].__name__, Pair.__type_params__[0].__name__
