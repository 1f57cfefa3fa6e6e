# min: 3.8
class Guard:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("in")

    def __exit__(self, *exc):
        self.log.append("out")


def live(log, data):
    with Guard(log):
        for k in data:
            if k is not None:
                log.append(k)


def gen(log, data):
    with Guard(log):
        for k, v in data.items():
            if v is not None:
                yield k


def main():
    log = []
    live(log, [1, None, 2])
    return [log, list(gen([], {"a": 1, "b": None}))]
