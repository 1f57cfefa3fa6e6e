# min: 3.10
def f(x):
    match x:
        case bool(b):
            return ("bool", b)
        case int(i):
            return ("int", i)
        case float():
            return "float"
        case list([a, b]):
            return ("pair", a, b)
    return None

def main():
    return f(True), f(3), f(2.0), f([1, 2]), f("x")
