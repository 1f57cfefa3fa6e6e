# min: 3.8
def main():
    d = {"a": 1, "b": 2}
    total = 0
    for key, value in d.items():
        total += len(key) * value
    return total
