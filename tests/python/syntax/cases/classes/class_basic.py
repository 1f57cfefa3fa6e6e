# min: 3.8
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def norm1(self):
        return abs(self.x) + abs(self.y)

def main():
    return Point(3, -4).norm1()
