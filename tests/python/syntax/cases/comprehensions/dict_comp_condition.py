# min: 3.8
def main():
    d = {"a": 1, "b": 2, "c": 3}
    return {v: k for k, v in d.items() if v != 2}
