# min: 3.8
def f(**kw):
    return sorted(kw.items())

def main():
    a = {"x": 1}
    b = {"y": 2}
    return f(**a), f(**a, **b), f(z=0, **a), f(**a, w=3)
