# min: 3.10
class Point:
    __match_args__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y

def f(p):
    match p:
        case Point(0, 0):
            return "origin"
        case Point(x, 0):
            return ("x-axis", x)
        case Point(x=0, y=y):
            return ("y-axis", y)
        case Point():
            return "somewhere"
        case _:
            return "not a point"

def main():
    return [f(p) for p in (Point(0, 0), Point(3, 0), Point(0, 4), Point(1, 1), 5)]
