# min: 3.12
class Registry:
    def pick[T](self, items: list[T], i: int) -> T:
        return items[i]

def main():
    return Registry().pick(["a", "b"], 1), Registry.pick.__type_params__[0].__name__
