# min: 3.8
def f(x):
    if x:
        return "yes"
    else:
        return "no"

def main():
    return f(1), f(0)
