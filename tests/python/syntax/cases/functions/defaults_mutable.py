# min: 3.8
def f(x, acc=[]):
    acc.append(x)
    return len(acc)

def main():
    f(1)
    return f(2)
