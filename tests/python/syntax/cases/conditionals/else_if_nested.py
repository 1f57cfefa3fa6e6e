# min: 3.8
def f(a, b):
    if a:
        return 1
    else:
        if b:
            x = 2
        else:
            x = 3
        x += 10
        return x

def main():
    return f(1, 0), f(0, 1), f(0, 0)
