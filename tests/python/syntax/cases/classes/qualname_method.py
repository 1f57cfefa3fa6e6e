# min: 3.8
class A:
    class B:
        def m(self):
            def inner():
                pass
            return inner.__qualname__

def main():
    return A.B().m(), A.B.m.__qualname__
