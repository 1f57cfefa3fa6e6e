# min: 3.8
def multiplier(n):
    def mul(x):
        return x * n
    return mul

def main():
    return multiplier(3)(7), multiplier.__code__.co_cellvars
