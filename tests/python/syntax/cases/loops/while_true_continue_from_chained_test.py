# min: 3.8
def first_inside(values, limit):
    it = iter(values)
    while True:
        u = next(it)
        if not 0.1 < u < 0.9:
            continue
        w = 1.0 - u
        if w > limit:
            return u, w


def main():
    return [first_inside([0.0, 0.95, 0.5, 0.2], 0.6), first_inside([1.0, 0.3], 0.1)]
