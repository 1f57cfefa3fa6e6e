# min: 3.8
def f(x):
    if x:
        return
    print("fell through")

def main():
    return f(1), f(0)
