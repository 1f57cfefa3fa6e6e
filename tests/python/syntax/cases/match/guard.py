# min: 3.10
def f(x):
    match x:
        case int(n) if n < 0:
            return "negative"
        case int(n) if n > 100:
            return "big"
        case int():
            return "int"
        case str() as s if s:
            return "text"
    return "unknown"

def main():
    return [f(v) for v in (-1, 500, 5, "s", "", 1.0)]
