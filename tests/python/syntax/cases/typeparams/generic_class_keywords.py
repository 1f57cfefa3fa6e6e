# min: 3.12
class Meta(type):
    def __new__(mcls, name, bases, ns, **kw):
        ns["flag"] = kw.get("flag")
        return super().__new__(mcls, name, bases, ns)

class Base:
    pass

class Tagged[T](Base, metaclass=Meta, flag="on"):
    value: T

class Plain[T, S]:
    def both(self, t: T, s: S) -> S:
        return s

def main():
    return (Tagged.flag, [b.__name__ for b in Tagged.__mro__],
            Plain().both(1, 2), Tagged.__annotations__["value"].__name__)
