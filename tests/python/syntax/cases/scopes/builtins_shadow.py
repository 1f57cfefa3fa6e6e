# min: 3.8
def f():
    len = lambda x: -1
    return len([1, 2])

def main():
    return f(), len([1, 2])
