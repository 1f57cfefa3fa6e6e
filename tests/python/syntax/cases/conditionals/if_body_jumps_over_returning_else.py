# min: 3.8
def prepend(self, prepend=b''):
    if self._read is None:
        self._buffer = prepend
    else:
        self._read -= len(prepend)
        return
    self._length = len(self._buffer)
    self._read = 0


class Padded:
    def __init__(self, read):
        self._read = read
        self._buffer = b"buf"

    prepend = prepend


def main():
    a, b = Padded(None), Padded(10)
    a.prepend(b"xy")
    b.prepend(b"xy")
    return [vars(a), vars(b)]
