# min: 3.13
def f[T = int](x: T) -> T:
    return x

class C[K = str, V = list[K]]:
    pass

def main():
    t = f.__type_params__[0]
    k, v = C.__type_params__
    return f(1), t.__default__, k.__default__, repr(v.__default__)
