# min: 3.10
def f(cmd):
    match cmd:
        case ("move", (x, y)):
            return ("move", x + y)
        case ("say", str(text)):
            return text.upper()
        case ("quit",):
            return "bye"
        case _:
            return "?"

def main():
    return [f(c) for c in (("move", (1, 2)), ("say", "hi"), ("quit",), ("x", 1))]
