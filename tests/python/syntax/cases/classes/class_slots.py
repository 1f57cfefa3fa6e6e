# min: 3.8
class Slotted:
    __slots__ = ("a", "b")
    def __init__(self):
        self.a = 1

def main():
    s = Slotted()
    try:
        s.c = 3
    except AttributeError:
        return "no c", s.a, Slotted.__slots__
