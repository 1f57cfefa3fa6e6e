# min: 3.8
# The loop's own blocks never leave it: only its except clause does, by
# `break` (tarfile.TarFile.__init__ in append mode).
class Box:
    def __init__(self, items):
        self.items, self.seen, self.log = list(items), [], []

    def read(self):
        if not self.items:
            raise EOFError
        item = self.items.pop(0)
        if item is None:
            raise KeyError("bad")
        return item


def load(box, mode):
    try:
        if mode == "a":
            while True:
                box.log.append("seek")
                try:
                    box.seen.append(box.read())
                except EOFError:
                    box.log.append("end")
                    break
                except KeyError as e:
                    raise ValueError(str(e))
        if mode in ("a", "w"):
            box.log.append("loaded")
    except:
        box.log.append("failed")
        raise
    return box.seen, box.log


def main():
    out = [load(Box([1, 2]), "a"), load(Box([1]), "w")]
    try:
        load(Box([1, None]), "a")
    except ValueError as e:
        out.append(str(e))
    return out
