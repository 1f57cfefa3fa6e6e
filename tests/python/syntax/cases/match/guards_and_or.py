# min: 3.10
def f(x, flag=False):
    match x:
        case int(n) if n > 0 and (flag or n < 10):
            return "small positive"
        case int(n) if not n or flag:
            return "zero or flagged"
        case str(s) if (k := len(s)) > 2:
            return "long", k
        case _ if flag:
            return "flagged other"
        case _:
            return "other"

def main():
    return [f(3), f(30), f(30, True), f(0), f("abcd"), f("a"), f(1.5, True), f(1.5)]
