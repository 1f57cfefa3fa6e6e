# min: 3.8
def table_of_contents(lines):
    it = iter(lines)
    starts, stops = [], []
    last_was_empty = False
    while True:
        line = next(it, b"")
        if line.startswith(b"From "):
            starts.append(len(starts))
            last_was_empty = False
        elif not line:
            if last_was_empty:
                stops.append(-1)
            else:
                stops.append(len(stops))
            break
        elif line == b"\n":
            last_was_empty = True
        else:
            last_was_empty = False
    return dict(enumerate(zip(starts, stops)))


def log_until_empty(items, log):
    while True:
        item = items.pop()
        if item > 10:
            log.append("big")
        elif not item:
            log.append("stop")
            break
        else:
            log.append(item)
    log.append("done")
    return log


def main():
    return [
        table_of_contents([b"From a", b"x", b"\n", b"From b", b""]),
        table_of_contents([b"From a", b"\n", b""]),
        log_until_empty([0, 3, 20, 5], []),
    ]
