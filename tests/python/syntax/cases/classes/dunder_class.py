# min: 3.8
class Widget:
    def kind(self):
        return __class__.__name__

class Sub(Widget):
    pass

def main():
    return Sub().kind(), type(Sub()).__name__
