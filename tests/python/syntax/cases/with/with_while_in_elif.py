# min: 3.8
class Lock:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("in")

    def __exit__(self, *exc):
        self.log.append("out")


def get(items, block, timeout, log):
    with Lock(log):
        if not block:
            if not items:
                raise LookupError("empty")
        elif timeout is None:
            while not items:
                items.append(len(log))
        item = items.pop()
        return item


def drain(items, limit):
    n = 0
    while items and n < limit:
        items.pop()
        n += 1
    return n


def main():
    log = []
    return [get([1], False, None, log), get([], True, None, log), get([2], True, 5, log), log,
            drain([1, 2, 3], 2), drain([], 5)]
