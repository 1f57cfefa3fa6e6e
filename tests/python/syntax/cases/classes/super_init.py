# min: 3.8
class A:
    def __init__(self, x):
        self.x = x

class B(A):
    def __init__(self, x, y):
        super().__init__(x)
        self.y = y

def main():
    b = B(1, 2)
    return b.x, b.y
