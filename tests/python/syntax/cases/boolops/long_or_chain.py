# min: 3.8
def f(a, b, c, d):
    if a or b or c or d:
        return "some"
    return "none"

def main():
    return f(0, 0, 0, 1), f(0, 0, 0, 0)
