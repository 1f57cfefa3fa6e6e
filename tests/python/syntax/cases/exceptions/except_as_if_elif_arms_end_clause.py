# min: 3.8
import errno


class Missing(Exception):
    pass


def opener(table):
    def open_(path, mode):
        result = table.get((path, mode))
        if isinstance(result, int):
            raise OSError(result, "fail")
        return result
    return open_


class Box:
    pass


def open_mailbox(open_, path, create):
    self = Box()
    try:
        f = open_(path, "rb+")
    except OSError as e:
        if e.errno == errno.ENOENT:
            if create:
                f = open_(path, "wb+")
            else:
                raise Missing(path)
        elif e.errno in (errno.EACCES, errno.EROFS):
            f = open_(path, "rb")
        else:
            raise
    self._file = f


def main():
    out = []
    table = {("a", "rb+"): "A", ("b", "rb+"): errno.ENOENT, ("b", "wb+"): "B new",
             ("c", "rb+"): errno.EACCES, ("c", "rb"): "C ro", ("d", "rb+"): errno.EIO}
    for path, create in (("a", False), ("b", True), ("b", False), ("c", False), ("d", False)):
        try:
            out.append(open_mailbox(opener(table), path, create))
            out.append(opener(table)(path, "rb+") if path == "a" else path)
        except (Missing, OSError) as e:
            out.append(type(e).__name__)
    return out
