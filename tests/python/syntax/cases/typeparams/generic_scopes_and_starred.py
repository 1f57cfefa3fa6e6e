# min: 3.12
def star[*Ts](*args: *Ts) -> tuple[*Ts]:
    return args

class Private:
    def pick[__T](self, x: __T) -> __T:
        return x

    def use(self):
        return self.pick(1)

class Base:
    def name(self):
        return "base"

class Derived[T](Base):
    """A generic class with a docstring."""

    def name[U](self) -> U:
        return "derived/" + super().name()

class Store:
    def put[T](self, v: T):
        self.v = v
        self.w = 1
        return self.v

def kwonly[T](*, k: T = 5) -> T:
    return k

def lazy_annotation[T](x: (lambda: T) = None):
    return x

counter = 0

def bump[T]() -> int:
    global counter
    counter += 1
    return counter

def main():
    return (star(1, 2), Private().use(), Derived().name(), Derived.__doc__, Store().put(3),
            kwonly(), lazy_annotation(), bump(), bump(), repr(star.__annotations__["args"]))
