# min: 3.8
def g(items):
    for it in items:
        try:
            yield 10 // it
        except ZeroDivisionError:
            yield "inf"

def main():
    return list(g([5, 0, 2]))
