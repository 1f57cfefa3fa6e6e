# min: 3.8
class Util:
    factor = 2
    @staticmethod
    def add(a, b):
        return a + b
    @classmethod
    def scale(cls, v):
        return v * cls.factor

def main():
    return Util.add(1, 2), Util.scale(5), Util().scale(1)
