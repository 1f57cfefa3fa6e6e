# min: 3.8
def f(x):
    r = 0
    if x > 2:
        r = 1
    return r

def main():
    return [f(1), f(3)]
