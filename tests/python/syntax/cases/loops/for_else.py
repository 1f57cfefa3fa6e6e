# min: 3.8
def f(xs):
    for x in xs:
        if x == 0:
            break
    else:
        return "no zero"
    return "zero"

def main():
    return f([1, 2]), f([1, 0])
