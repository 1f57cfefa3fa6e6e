# min: 3.12
def later[T: Later, S: (Later, int)](x: T, y: S) -> T:
    return x

class Holder[K: Later]:
    pass

class Later:
    pass

def main():
    t, s = later.__type_params__
    return t.__bound__.__name__, [c.__name__ for c in s.__constraints__], Holder.__type_params__[0].__bound__.__name__
