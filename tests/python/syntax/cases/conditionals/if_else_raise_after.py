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
    out = [pick({"a": 2}, "a", None), pick({}, "b", lambda: 7)]
    try:
        pick({}, "c", None)
    except KeyError as e:
        return out, e.args
