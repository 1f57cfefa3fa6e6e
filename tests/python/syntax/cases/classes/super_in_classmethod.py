# min: 3.8
class A:
    @classmethod
    def make(cls):
        return "A.make:" + cls.__name__

class B(A):
    @classmethod
    def make(cls):
        return "B>" + super().make()

def main():
    return B.make()
