# min: 3.8
class Outer:
    class Inner:
        value = 5
        def get(self):
            return self.value
    def make(self):
        return self.Inner()

def main():
    return Outer().make().get(), Outer.Inner.__qualname__
