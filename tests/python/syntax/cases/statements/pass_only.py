# min: 3.8
def f():
    pass

def main():
    return f()
