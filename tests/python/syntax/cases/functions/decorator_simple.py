# min: 3.8
def shout(fn):
    def wrapper(*a):
        return fn(*a).upper()
    return wrapper

@shout
def greet(name):
    return "hi " + name

def main():
    return greet("ann")
