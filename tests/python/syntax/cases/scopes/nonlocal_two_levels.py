# min: 3.8
def outer():
    x = 0
    def middle():
        def inner():
            nonlocal x
            x += 10
        inner()
        inner()
    middle()
    return x

def main():
    return outer()
