# min: 3.8
def accumulator():
    total = 0
    while True:
        value = yield total
        if value is None:
            return total
        total += value

def main():
    g = accumulator()
    next(g)
    g.send(3)
    last = g.send(4)
    try:
        g.send(None)
    except StopIteration as s:
        return last, s.value
