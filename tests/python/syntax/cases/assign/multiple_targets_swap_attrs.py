# min: 3.8
class P:
    def __init__(self):
        self.a, self.b = 1, 2

def main():
    p = P()
    p.a, p.b = p.b, p.a
    return p.a, p.b
