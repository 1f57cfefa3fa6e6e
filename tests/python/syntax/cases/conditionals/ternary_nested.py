# min: 3.8
def sign(x):
    return "neg" if x < 0 else "zero" if x == 0 else "pos"

def main():
    return sign(-3), sign(0), sign(5)
