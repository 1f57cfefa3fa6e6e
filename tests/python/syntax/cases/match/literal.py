# min: 3.10
def f(x):
    match x:
        case 1:
            return "one"
        case "two":
            return "two"
        case None:
            return "none"
        case _:
            return "other"

def main():
    return [f(v) for v in (1, "two", None, 3.5)]
