# min: 3.10
class P:
    __match_args__ = ("x", "y")
    def __init__(self, x, y, z=0):
        self.x, self.y, self.z = x, y, z

def f(p):
    match p:
        case P(1, y, z=3):
            return "a", y
        case P(x, _, z=zz) if zz > x:
            return "b", x, zz
        case P(_, 2):
            return "c"
    return "d"

def main():
    return [f(v) for v in (P(1, 5, 3), P(1, 2, 5), P(9, 2, 1), P(9, 9, 9), 3)]
