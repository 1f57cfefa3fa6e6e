# min: 3.8
def f(a, b, c):
    if (b if a else c):
        return "yes"
    return "no"

def main():
    return f(1, 1, 0), f(0, 1, 0), f(0, 0, 1)
