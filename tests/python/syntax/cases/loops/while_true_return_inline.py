# min: 3.8
def batches(items, size, out):
    it = iter(items)
    while True:
        batch = [x for _, x in zip(range(size), it)]
        n = len(batch)
        if n > 0:
            out.append(batch)
        if n < size:
            return


def context(new, old, stop):
    while 1:
        ctx = new.get("ctx")
        if ctx is None or ctx is old:
            return "set"
        if ctx is stop:
            break
        new = ctx
    new["ctx"] = old
    return "fixed"


def main():
    out = []
    batches(range(7), 3, out)
    s = {}
    a = {"ctx": s}
    return [out, context({"ctx": None}, 1, 2), context(a, 5, s), a]
