# min: 3.8
def add_repr(cls):
    cls.__repr__ = lambda self: cls.__name__ + "()"
    return cls

@add_repr
class Thing:
    pass

def main():
    return repr(Thing())
