# min: 3.12
def make(f):
    return type("M", (), {"f": staticmethod(f)})
class C[T](make(lambda: T)):
    pass
class A[T]:
    class B[U]:
        def m[V](self, v: V) -> tuple[T, U, V]:
            return (v,)
        @classmethod
        def c[W](cls: type, w: W = None) -> W:
            return w
    __slots__ = ()
def deco(**kw):
    return lambda f: f
@deco(x=1, y=[1, 2])
async def fetch[T](x: T, *a: int, **k: str) -> list[T]:
    return [x]
def main():
    return C.f().__name__, A.B().m(1), A.B.c(2), A.__slots__, fetch.__type_params__[0].__name__
