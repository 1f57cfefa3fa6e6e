# min: 3.8
def drain(items, d):
    while True:
        key = items.pop()
        try:
            del d[key]
        except KeyError:
            pass


def commit_removals(items, d):
    pop = items.pop
    while True:
        try:
            key = pop()
        except IndexError:
            return len(d)
        try:
            del d[key]
        except KeyError:
            pass


def main():
    d = {1: "a", 2: "b", 3: "c"}
    try:
        drain([5, 2], d)
    except IndexError as e:
        err = type(e).__name__
    return [err, d, commit_removals([1, 7], {1: 0, 3: 0})]
