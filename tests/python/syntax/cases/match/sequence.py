# min: 3.10
def f(seq):
    match seq:
        case []:
            return "empty"
        case [x]:
            return ("one", x)
        case [x, y]:
            return ("two", x + y)
        case [x, *rest]:
            return ("many", x, rest)

def main():
    return f([]), f([1]), f((1, 2)), f([1, 2, 3])
