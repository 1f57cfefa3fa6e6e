# min: 3.8
def f(x):
    if x:
        return "a"
    else:
        return "b"

def g(x):
    if x:
        y = 1
    else:
        return None
    return y

def main():
    return f(1), f(0), g(1), g(0)
