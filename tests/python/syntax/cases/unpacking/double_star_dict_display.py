# min: 3.8
def main():
    base = {"a": 1, "b": 2}
    return {**base, "b": 3, **{"c": 4}}
