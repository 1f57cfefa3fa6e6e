# min: 3.8
def main():
    a = 1
    b = [1, 2, 3]
    c = {"k": 1, "j": 2}
    del a
    del b[0], c["k"]
    try:
        a
    except NameError:
        return b, c
