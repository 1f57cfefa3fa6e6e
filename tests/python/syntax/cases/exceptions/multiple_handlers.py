# min: 3.8
def f(v):
    try:
        return {"a": 1}[v] / (v == "a" and 0 or 1)
    except KeyError as e:
        return ("key", e.args)
    except ZeroDivisionError:
        return "zero"
    except (TypeError, ValueError) as e:
        return type(e).__name__

def main():
    return f("a"), f("b"), f([])
