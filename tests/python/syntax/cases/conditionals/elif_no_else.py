# min: 3.8
def f(n):
    out = []
    if n == 1:
        out.append("one")
    elif n == 2:
        out.append("two")
    out.append("end")
    return out

def main():
    return f(1), f(2), f(3)
