# min: 3.8
def outer():
    x = 1
    def inner():
        nonlocal x
        x = 2
    inner()
    return x

def main():
    return outer()
