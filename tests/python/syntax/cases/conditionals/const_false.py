# min: 3.8
def f(x):
    if 0:
        x = 100
    if False:
        print("dead")
    return x

def main():
    return f(5)
