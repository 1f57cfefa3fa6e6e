# min: 3.8
# `continue` out of `except E as e:` (3.8 unbinds e by CALL_FINALLY before
# the jump), the loop left by a `break` after the try (tarfile.TarFile.next).
class Source:
    def __init__(self, items):
        self.items, self.ignore, self.offset = list(items), True, 0

    def read(self):
        item = self.items.pop(0)
        if isinstance(item, Exception):
            raise item
        return item


def next_member(src, log):
    while True:
        try:
            member = src.read()
        except KeyError as e:
            if src.ignore:
                src.offset += 1
                continue
            elif src.offset == 0:
                log.append(("first", e.args))
            member = None
        break
    return member, src.offset, log


def main():
    a = next_member(Source([KeyError("x"), KeyError("y"), 7]), [])
    s = Source([KeyError("z"), 1])
    s.ignore = False
    return a, next_member(s, [])
