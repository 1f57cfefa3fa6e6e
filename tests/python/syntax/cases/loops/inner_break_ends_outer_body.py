# min: 3.8
def first_unshared(seqs):
    for s1 in seqs:
        c = s1[0]
        for s2 in seqs:
            if c in s2[1:]:
                c = None
                break
        else:
            break
    return c


def found_or_missing(cls, other):
    for attr in cls:
        for base in other:
            if attr in base:
                if base[attr] is None:
                    return 1
                break
            if attr + "_" in base:
                break
        else:
            return 2
    return True


def pairs(xs, ys):
    r = []
    for a in xs:
        for b in ys:
            if a == b:
                break
        else:
            r.append(-a)
    return r


def main():
    return [
        first_unshared([[1, 2], [2, 3], [3]]),
        first_unshared([[1, 2], [2, 1]]),
        found_or_missing(["a", "b"], [{"a": 1, "b_": 2}]),
        found_or_missing(["a"], [{"a": None}]),
        found_or_missing(["c"], [{"a": 1}]),
        pairs([1, 2, 3], [2, 3, 4]),
    ]
