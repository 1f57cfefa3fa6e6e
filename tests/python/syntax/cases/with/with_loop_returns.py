# min: 3.8
class Box:
    def __init__(self, log, items):
        self.log = log
        self.items = list(items)

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, *exc):
        self.log.append("exit")
        return False

    def read(self):
        if self.items:
            return self.items.pop(0)
        return ""


def same(log, a, b):
    with Box(log, a) as f1:
        while True:
            x = f1.read()
            if x != b.pop(0):
                return False
            if not x:
                return True


def first_long(log, items):
    with Box(log, items) as f:
        return f.read()


def main():
    log = []
    return [same(log, ["a", ""], ["a", ""]), same(log, ["a"], ["b"]), first_long(log, ["xy"]), log]
