# min: 3.8
class Temp:
    def __init__(self):
        self._c = 0
    @property
    def f(self):
        return self._c * 9 / 5 + 32
    @f.setter
    def f(self, value):
        self._c = (value - 32) * 5 / 9

def main():
    t = Temp()
    t.f = 212
    return t._c, t.f
