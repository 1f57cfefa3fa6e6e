# min: 3.8
def f(a, b, c):
    if a:
        if b:
            if c:
                return "abc"
            return "ab"
        return "a"
    return "-"

def main():
    return [f(1, 1, 1), f(1, 1, 0), f(1, 0, 0), f(0, 1, 1)]
