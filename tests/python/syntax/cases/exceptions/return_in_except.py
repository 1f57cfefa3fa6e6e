# min: 3.8
def f(x):
    try:
        return 10 // x
    except ZeroDivisionError:
        return None
    finally:
        print("checked", x)

def main():
    return f(2), f(0)
