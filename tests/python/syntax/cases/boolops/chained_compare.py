# min: 3.8
def f(x):
    return 0 < x < 10

def main():
    return f(-1), f(5), f(10)
