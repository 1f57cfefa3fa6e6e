# min: 3.8
x = 5

def f():
    try:
        print(x)
    except UnboundLocalError as e:
        return "unbound"
    x = 1

def main():
    return f()
