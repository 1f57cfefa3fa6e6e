# min: 3.10
def f(x):
    match x:
        case b"raw":
            return "bytes"
        case "raw":
            return "str"
        case 1.5:
            return "float"
        case -2:
            return "neg"
        case 1+2j:
            return "complex"

def main():
    return [f(v) for v in (b"raw", "raw", 1.5, -2, 1 + 2j, 0)]
