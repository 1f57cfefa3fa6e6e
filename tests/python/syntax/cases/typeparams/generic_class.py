# min: 3.12
class Box[T]:
    def __init__(self, item: T):
        self.item = item
    def get(self) -> T:
        return self.item

def main():
    return Box(5).get(), [p.__name__ for p in Box.__type_params__]
