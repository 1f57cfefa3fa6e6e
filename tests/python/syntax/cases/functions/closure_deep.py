# min: 3.8
def outer(a):
    def middle(b):
        def inner(c):
            return a + b + c
        return inner
    return middle

def main():
    return outer(1)(2)(3)
