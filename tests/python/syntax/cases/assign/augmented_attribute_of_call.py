# min: 3.8
class Box:
    def __init__(self):
        self.n = 1

box = Box()
calls = []

def get():
    calls.append("get")
    return box

def main():
    get().n += 4
    return box.n, calls
