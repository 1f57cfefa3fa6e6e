# min: 3.8
def main():
    try:
        try:
            {}["missing"]
        except KeyError as e:
            raise ValueError("wrapped") from e
    except ValueError as err:
        return err.args, type(err.__cause__).__name__, err.__suppress_context__
