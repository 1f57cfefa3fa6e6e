# min: 3.8
def f(n):
    while n > 0:
        if n == 3:
            return "three"
        n -= 1
    return "none"

def main():
    return f(5), f(2)
