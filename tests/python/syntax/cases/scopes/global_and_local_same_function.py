# min: 3.8
g = 1

def f():
    global g
    local = g
    g = local + 10
    return local, g

def main():
    return f(), g
