# min: 3.12
calls = []

def trace(f):
    calls.append(f.__name__)
    return f

def tag(name):
    def deco(obj):
        obj.tag = name
        return obj
    return deco

@trace
@tag("f")
def pick[T](items: list[T], i: int = 0, *, default: T | None = None) -> T | None:
    return items[i] if items else default

@tag("cls")
class Stack[T]:
    @trace
    def push[U](self, x: U = 1) -> U:
        return x

async def fetch[T](x: T) -> T:
    return x

def gen[T](xs: list[T]):
    yield from xs

def main():
    return (pick([1, 2]), pick([], default=5), pick.tag, Stack.tag, Stack().push(), calls,
            list(gen([1, 2])), fetch.__type_params__[0].__name__)
