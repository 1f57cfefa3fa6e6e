# min: 3.8
def f(x=None):
    if x is None:
        x = []
    elif x is not None and len(x) > 2:
        x = x[:2]
    return x

def main():
    return f(), f([1, 2, 3]), f([9])
