# min: 3.10
import enum

class K(enum.Enum):
    A = "a"
    B = "b"

def f(d):
    match d:
        case {K.A: 1, K.B: v}:
            return "ab", v
        case {K.A: _, **rest} if rest:
            return "a+", sorted(rest, key=str)
        case {**rest}:
            return "any", len(rest)
        case _:
            return None

def main():
    return f({K.A: 1, K.B: 2}), f({K.A: 0, "z": 1}), f({}), f(3)
