# min: 3.8
class Base:
    def greet(self):
        return "base"

class Child(Base):
    def greet(self):
        return "child+" + super().greet()

def main():
    return Child().greet()
