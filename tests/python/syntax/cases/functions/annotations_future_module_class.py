# min: 3.8
from __future__ import annotations

x: list[int] = []
y: "quoted"


class C:
    a: dict[str, int]
    b: C = None

    def m(self, other: C | None = None, *args: int, key: tuple[int, ...] = (), **kw: "x") -> C:
        return self


def f(a: Undefined, /, b: lambda: 1 = None) -> Whatever[1, 2]:
    return a


def main():
    return f(1), f.__annotations__, __annotations__, C.__annotations__, C.m.__annotations__
