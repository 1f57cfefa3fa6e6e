# min: 3.8
def f(e):
    try:
        raise e
    except ArithmeticError:
        return "arith"
    except LookupError:
        return "lookup"
    except Exception:
        return "other"

def main():
    return f(ZeroDivisionError()), f(KeyError()), f(RuntimeError())
