# min: 3.8
def pick(table, key, fallback):
    value = table.get(key)
    if value is not None:
        result = value * 2
    else:
        if fallback:
            result = fallback()
        else:
            raise KeyError(key)
    return result


def main():
    print(pick({"a": 2}, "a", None), pick({}, "b", lambda: 7))
    pick({}, "c", None)  # raises: the suite compares the exception too
