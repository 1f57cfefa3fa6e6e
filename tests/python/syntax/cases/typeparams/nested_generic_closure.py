# min: 3.12
def outer[T](x: T):
    def inner[U](y: U) -> tuple[T, U]:
        return (x, y)

    class Local[V]:
        def get(self) -> T:
            return x

    return inner, Local

def make():
    n = 3
    def counter[T](step: T) -> T:
        nonlocal n
        n += 1
        return n
    return counter

def main():
    inner, Local = outer(1)
    c = make()
    return inner(2), Local().get(), Local.__type_params__[0].__name__, c(1), c(1)
