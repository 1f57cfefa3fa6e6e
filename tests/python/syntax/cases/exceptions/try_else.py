# min: 3.8
def f(x):
    try:
        y = 10 / x
    except ZeroDivisionError:
        return "div"
    else:
        return ("ok", y)

def main():
    return f(0), f(5)
