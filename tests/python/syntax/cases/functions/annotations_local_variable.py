# min: 3.8
def f():
    x: int = 1
    y: str
    return x

def main():
    return f()
