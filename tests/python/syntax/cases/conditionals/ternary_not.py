# min: 3.8
def f(a):
    return 1 if not a else 2

def main():
    return f(0), f(1)
