# min: 3.8
def f(a, *, key, flag=False):
    return a, key, flag

def main():
    return f(1, key="k"), f(2, flag=True, key=None)
