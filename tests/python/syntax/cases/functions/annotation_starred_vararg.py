# min: 3.11
from typing import TypeVarTuple

Ts = TypeVarTuple("Ts")

def pack(first, *args: *Ts, last: int = 0) -> tuple[*Ts]:
    return args

def main():
    return pack(1, 2, 3), repr(pack.__annotations__["args"])
