# min: 3.8
def step(ys, t):
    for x in ys:
        try:
            t[x] += 1
        except KeyError:
            return 3
        finally:
            t["seen"] = t.get("seen", 0) + 1
    return 0


def main():
    t = {"seen": 0, 1: 0, 2: 0}
    return step([1, 2], t), step([1, 9, 2], t), t
