# min: 3.10
def f(xs):
    match xs:
        case [*_]:
            return "sequence"
        case _:
            return "scalar"

def main():
    return f([1]), f((1, 2)), f(3), f("str")
