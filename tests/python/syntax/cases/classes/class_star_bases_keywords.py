# min: 3.8
class A:
    pass

class B:
    pass

class Meta(type):
    def __new__(mcls, name, bases, ns, **kw):
        ns["kw"] = sorted(kw)
        return super().__new__(mcls, name, bases, ns)

more = (B,)
options = {"flag": 1}

class C(A, *more, metaclass=Meta, **options):
    x = 1

def make():
    class Local(*more, **{}):
        def who(self):
            return __class__.__name__
    return Local

def main():
    return [k.__name__ for k in C.__mro__], C.kw, make()().who()
