# min: 3.8
def kind(v):
    if isinstance(v, bool):
        return "bool"
    elif isinstance(v, int):
        return "int"
    elif isinstance(v, str):
        return "str"
    elif v is None:
        return "none"
    return "other"

def main():
    return [kind(v) for v in (True, 3, "s", None, 1.5)]
