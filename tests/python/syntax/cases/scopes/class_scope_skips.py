# min: 3.8
x = "global"

class C:
    x = "class"
    def method(self):
        return x

def main():
    return C().method(), C.x
