# min: 3.8
def main():
    e = "before"
    try:
        raise KeyError("k")
    except KeyError as e:
        pass
    try:
        return e
    except NameError as err:
        return "unbound", type(err).__name__
