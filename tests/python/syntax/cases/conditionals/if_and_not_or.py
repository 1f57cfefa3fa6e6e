# min: 3.8
def f(a, b, c):
    if a and not b or not c:
        return 1
    elif not (a or b):
        return 2
    return 3

def main():
    return [f(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)]
