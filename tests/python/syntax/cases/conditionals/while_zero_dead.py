# min: 3.8
def f():
    n = 1
    while 0:
        n += 1
    while False:
        n = 100
    return n

def main():
    return f()
