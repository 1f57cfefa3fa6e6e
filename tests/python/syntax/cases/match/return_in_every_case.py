# min: 3.10
def f(x):
    match x:
        case {"a": [1, *tail]}:
            return tail
        case [{"b": b}]:
            return b
        case _:
            return None

def main():
    return f({"a": [1, 2, 3]}), f([{"b": "B"}]), f(1)
