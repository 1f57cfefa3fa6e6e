# min: 3.8
def f(x):
    if x:
        pass
    else:
        x = -1
    return x

def main():
    return f(0), f(3)
