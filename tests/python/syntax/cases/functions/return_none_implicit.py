# min: 3.8
def f():
    x = 1

def g():
    return

def main():
    return f(), g()
