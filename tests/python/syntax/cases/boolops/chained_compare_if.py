# min: 3.8
def f(x, lo=0, hi=5):
    if lo <= x < hi:
        return "in"
    else:
        return "out"

def main():
    return f(0), f(5), f(-1)
