# min: 3.8
def f():
    if True:
        return "always"
    return "never"

def main():
    return f()
