# min: 3.12
def outer():
    x = int
    type A[T] = dict[x, T]
    B = list
    class C[T](B):
        def get(self) -> x:
            return x
    def f[T: x](a: T = x) -> B:
        return a
    return A, C, f
def rec[T: rec](n: T) -> T:
    return n if n < 1 else rec(n - 1)
class Outer[T]:
    type Alias = list[T]
    def m(self) -> Alias:
        return 1
def T[T](): return 2
def main():
    A, C, f = outer()
    return repr(A.__value__), C.__mro__[1].__name__, f(), rec(3), repr(Outer.Alias.__value__), T()
