# min: 3.10
def f(x):
    match x:
        case True:
            return "t"
        case False:
            return "f"
        case None:
            return "n"
        case -1:
            return "neg"
        case -1.5j:
            return "negc"
        case 2-3j:
            return "c"
    return "?"

def main():
    return [f(v) for v in (True, False, None, -1, complex(0, -1.5), complex(2, -3), 0)]
