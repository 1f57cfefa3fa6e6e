# min: 3.8
class Base:
    def __init__(self):
        self.log = ["base"]

class Derived(Base):
    def __init__(self):
        super().__init__()
        self.log.append(__class__.__name__)

def main():
    return Derived().log
