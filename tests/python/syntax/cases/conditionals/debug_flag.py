# min: 3.8
def f():
    if __debug__:
        return "debug"
    return "optimised"

def main():
    return f()
