# min: 3.8
def f(x):
    if x > 0:
        print("positive")
    print("after")

def main():
    f(1)
    f(-1)
    return None
