# min: 3.8
def main():
    f = lambda n: [i for i in range(n) if i != 1]
    return f(4)
