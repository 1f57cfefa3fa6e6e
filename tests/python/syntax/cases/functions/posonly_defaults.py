# min: 3.8
def f(a=1, /, b=2):
    return a, b

def main():
    return f(), f(5), f(b=9)
