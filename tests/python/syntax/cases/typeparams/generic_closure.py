# min: 3.12
def outer[T](x: T):
    def inner() -> T:
        return x
    return inner()

def main():
    return outer("v")
