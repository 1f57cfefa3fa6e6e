# min: 3.8
def main():
    print(x := 7, x + 1)
    return x
