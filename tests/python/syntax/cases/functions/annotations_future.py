# min: 3.8
from __future__ import annotations

def f(a: Undefined, b: list[int] = None) -> Whatever:
    return a

def main():
    return f(1), f.__annotations__
