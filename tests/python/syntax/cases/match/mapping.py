# min: 3.10
def f(d):
    match d:
        case {"type": "point", "x": x, "y": y}:
            return ("point", x, y)
        case {"type": t, **rest}:
            return (t, sorted(rest))
        case {}:
            return "empty mapping"

def main():
    return f({"type": "point", "x": 1, "y": 2}), f({"type": "z", "a": 1}), f({})
