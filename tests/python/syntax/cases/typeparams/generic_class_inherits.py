# min: 3.12
class Base[T]:
    def val(self):
        return "base"

class Child[T](Base[T]):
    def val(self):
        return "child/" + super().val()

def main():
    return Child().val(), len(Child.__type_params__)
