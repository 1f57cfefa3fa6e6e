# min: 3.10
def f(x):
    match x:
        case 1 | 2 | 3:
            return "small"
        case "a" | "b":
            return "letter"
    return "none"

def main():
    return f(2), f("b"), f(9)
