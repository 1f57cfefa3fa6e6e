# min: 3.8
class A:
    def who(self):
        return "A"

class B(A):
    def who(self):
        return "B" + super(B, self).who()

def main():
    return B().who()
