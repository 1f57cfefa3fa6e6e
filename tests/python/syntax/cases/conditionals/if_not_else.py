# min: 3.8
def f(x):
    if not x:
        y = "falsy"
    else:
        y = "truthy"
    return y

def main():
    return f(""), f("a")
