# min: 3.8
def main():
    try:
        try:
            pass
        except ValueError:
            return "no"
        else:
            raise IndexError("from else")
    except IndexError as e:
        return e.args
