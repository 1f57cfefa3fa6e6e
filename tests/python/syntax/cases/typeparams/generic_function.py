# min: 3.12
def first[T](xs: list[T]) -> T:
    return xs[0]

def main():
    return first([3, 4]), [p.__name__ for p in first.__type_params__]
