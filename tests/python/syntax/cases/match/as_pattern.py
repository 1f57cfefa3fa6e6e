# min: 3.10
def f(x):
    match x:
        case [1, (2 | 3) as second]:
            return second
        case (4 | 5) as whole:
            return whole * 10

def main():
    return f([1, 3]), f(5), f([1, 4])
