# min: 3.10
def f(x):
    match x:
        case 0:
            return "zero"
        case n:
            return n * 2

def main():
    return f(0), f(4)
