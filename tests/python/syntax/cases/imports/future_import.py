# min: 3.8
from __future__ import annotations

def f(x: NotDefinedAnywhere) -> int:
    return x

def main():
    return f(1), f.__annotations__["x"]
