# min: 3.8
import contextlib

class Obj:
    pass

@contextlib.contextmanager
def value():
    yield 42

def main():
    o = Obj()
    with value() as o.field:
        pass
    return o.field
