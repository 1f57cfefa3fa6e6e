# min: 3.8
def f(a, b):
    return not (a and b), not a and not b

def main():
    return [f(a, b) for a in (0, 1) for b in (0, 1)]
