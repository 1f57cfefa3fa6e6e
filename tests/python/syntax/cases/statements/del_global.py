# min: 3.8
x = 1
del x

def main():
    return "x" in globals()
