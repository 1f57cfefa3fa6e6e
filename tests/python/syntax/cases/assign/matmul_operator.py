# min: 3.8
class M:
    def __init__(self, v):
        self.v = v
    def __matmul__(self, other):
        return M(self.v * other.v)
    def __imatmul__(self, other):
        self.v += other.v
        return self

def main():
    m = M(2) @ M(3)
    m @= M(1)
    return m.v
