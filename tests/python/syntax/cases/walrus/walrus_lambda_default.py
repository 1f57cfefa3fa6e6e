# min: 3.8
def main():
    f = lambda: (z := 9) + 1
    return f()
