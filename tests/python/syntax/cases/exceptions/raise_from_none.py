# min: 3.8
def main():
    try:
        try:
            1 / 0
        except ZeroDivisionError:
            raise RuntimeError("clean") from None
    except RuntimeError as err:
        return err.__cause__, err.__suppress_context__
