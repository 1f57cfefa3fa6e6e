# min: 3.8
class Registry:
    items = {}
    @classmethod
    def add(cls, name):
        Registry.items[name] = cls
        return cls

class Sub(Registry):
    pass

def main():
    Sub.add("s")
    return {k: v.__name__ for k, v in Registry.items.items()}
