# min: 3.8
class Ctx:
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        print("exit with", exc[0].__name__)

def main():
    try:
        with Ctx():
            raise KeyError("k")
    except KeyError as e:
        return e.args
