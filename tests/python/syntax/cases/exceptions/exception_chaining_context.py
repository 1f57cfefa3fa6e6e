# min: 3.8
def main():
    try:
        try:
            raise ValueError("first")
        except ValueError:
            raise KeyError("second")
    except KeyError as e:
        return type(e.__context__).__name__, e.__context__.args
