# min: 3.10
def f(d):
    match d:
        case {"k": 1, **others}:
            return others
    return "no"

def main():
    return f({"k": 1, "z": 2}), f({"k": 2})
