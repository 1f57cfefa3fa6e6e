# min: 3.8
def show(*args):
    return "|".join(str(a) for a in args)

def main():
    x = 4
    return show(x if x > 3 else -x, "big" if x > 100 else "small")
