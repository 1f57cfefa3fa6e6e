# min: 3.8
def main():
    d = {"a": 1}
    lst = [1, 2, 3]
    d["a"] += 10
    lst[0] -= 1
    lst[-1] *= 3
    return d, lst
