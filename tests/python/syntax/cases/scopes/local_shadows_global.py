# min: 3.8
name = "global"

def f():
    name = "local"
    return name

def main():
    return f(), name
