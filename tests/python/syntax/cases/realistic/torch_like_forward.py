# min: 3.8
class Linear:
    def __init__(self, w, b):
        self.w, self.b = w, b
    def __call__(self, x):
        return [sum(wi * xi for wi, xi in zip(row, x)) + bi for row, bi in zip(self.w, self.b)]

class Model:
    def __init__(self):
        self.l1 = Linear([[1, 0], [0, 1]], [0, 1])
        self.l2 = Linear([[1, 1]], [-1])
        self.training = False
    def forward(self, x, *, scale=1.0):
        h = self.l1(x)
        h = [v if v > 0 else 0 for v in h]
        if self.training:
            h = [v * 0.5 for v in h]
        out = self.l2(h)
        return [o * scale for o in out]

def main():
    m = Model()
    return m.forward([1, -3]), m.forward([2, 2], scale=2)
