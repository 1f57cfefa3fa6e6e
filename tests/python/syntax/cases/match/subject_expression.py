# min: 3.10
def f(a, b):
    match a, b:
        case 0, 0:
            return "both zero"
        case 0, _:
            return "a zero"
        case _, 0:
            return "b zero"
        case _:
            return "neither"

def main():
    return f(0, 0), f(0, 1), f(1, 0), f(1, 1)
