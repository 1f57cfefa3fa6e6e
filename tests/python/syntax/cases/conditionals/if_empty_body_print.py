# min: 3.8
def main():
    for v in (0, 1, 2):
        if v == 1:
            print("one")
        elif v:
            print("many", v)
        else:
            print("zero")
