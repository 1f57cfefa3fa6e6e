# min: 3.8
def f(x):
    if x:
        pass
    else:
        pass
    return "done"

def main():
    return f(1), f(0)
