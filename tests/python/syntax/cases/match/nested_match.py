# min: 3.10
def f(x, y):
    match x:
        case 0:
            match y:
                case 0:
                    return "00"
                case _:
                    return "0?"
        case 1:
            r = "1"
        case _:
            r = "?"
    return r

def main():
    return f(0, 0), f(0, 1), f(1, 0), f(2, 2)
