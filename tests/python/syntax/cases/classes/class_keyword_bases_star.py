# min: 3.8
class A:
    pass

class B:
    pass

bases = (A, B)

class C(*bases):
    pass

def main():
    return [k.__name__ for k in C.__bases__]
