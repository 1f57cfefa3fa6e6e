# min: 3.8
class Opener:
    def __init__(self, fail):
        self.fail = fail
        self.closed = []

    def openpty(self):
        if self.fail:
            raise OSError("no pty")
        return 3, 4

    def close(self, fd):
        self.closed.append(fd)


def master_open(os, fallback):
    try:
        master_fd, slave_fd = os.openpty()
    except (AttributeError, OSError):
        pass
    else:
        os.close(slave_fd)
        return master_fd, os.closed
    return fallback()


class File:
    def __init__(self, ok):
        self.ok = ok
        self._seekable = None

    def tell(self):
        if not self.ok:
            raise OSError
        return 0

    def seekable(self):
        if self._seekable is None:
            try:
                self.tell()
            except OSError:
                self._seekable = False
            else:
                self._seekable = True
        return self._seekable


def main():
    return [
        master_open(Opener(False), lambda: "fallback"),
        master_open(Opener(True), lambda: "fell back"),
        File(True).seekable(),
        File(False).seekable(),
    ]
