# min: 3.8
class Meta(type):
    def __new__(mcls, name, bases, ns, **kw):
        ns["tag"] = kw.get("tag", "none")
        return super().__new__(mcls, name, bases, ns)

class Tagged(metaclass=Meta, tag="special"):
    pass

def main():
    return Tagged.tag, type(Tagged).__name__
