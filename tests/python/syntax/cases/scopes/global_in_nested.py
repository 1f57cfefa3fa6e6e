# min: 3.8
value = "module"

def outer():
    value = "outer"
    def inner():
        global value
        return value
    return inner()

def main():
    return outer()
