# min: 3.8
def f(a: int, b: "str" = "x", *args: float, c: bool = True, **kw: dict) -> list:
    return [a, b]

def main():
    return f(1), sorted(f.__annotations__)
