# min: 3.8
def main():
    adder = lambda x: lambda y: x + y
    return adder(3)(4)
