# min: 3.12
class Registry:
    Key = str
    type Entry[V] = dict[Key, V]
    type Pair[A, B: int] = tuple[A, B]

    def lookup[T: (int, str)](self, key: Key) -> T:
        return key

def main():
    e = Registry.Entry
    return e.__name__, repr(e.__value__), [p.__name__ for p in Registry.Pair.__type_params__], Registry().lookup("k")
