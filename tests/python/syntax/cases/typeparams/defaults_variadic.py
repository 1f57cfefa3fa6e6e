# min: 3.13
def f[T: int = bool, *Ts = *tuple[int, str], **P = [int, str]](x: T) -> T:
    return x

# (3.13.0's Generic refuses a defaulted parameter after a TypeVarTuple.)
class C[V = list[int], **P = ..., *Ts = *tuple[int]]:
    pass

type A[K = str, *Ks = *tuple[()]] = dict[K, tuple[*Ks]]

def main():
    t, ts, p = f.__type_params__
    c, b, a = C.__type_params__
    return (f(True), t.__default__, repr(ts.__default__), p.__default__, repr(a.__default__),
            b.__default__, c.__default__, repr(A.__type_params__[1].__default__), A.__type_params__[0].__default__)
