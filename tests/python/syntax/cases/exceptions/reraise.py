# min: 3.8
def f():
    try:
        raise KeyError("x")
    except KeyError:
        print("logging")
        raise

def main():
    try:
        f()
    except KeyError as e:
        return "reraised", e.args
