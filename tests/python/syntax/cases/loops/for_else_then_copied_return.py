# min: 3.8
def dt(x, memo):
    y = [memo(a) for a in x]
    for k, j in zip(x, y):
        if k is not j:
            y = tuple(y)
            break
    else:
        y = x
    return y

def fq(hostname, aliases):
    for name in aliases:
        if '.' in name:
            break
    else:
        name = hostname
    return name

def sp(components, n):
    for i in range(1, len(components)):
        prefix = components[:i]
        if len(prefix) <= n:
            break
    else:
        raise ValueError("name is too long")
    return prefix, i


def main():
    out = [dt([1, 2], lambda a: a), dt([1, 2], lambda a: a + 1), fq("host", ["a", "b.c"]), fq("host", ["a"])]
    out.append(sp([1, 2, 3, 4], 2))
    try:
        sp([1, 2], 0)
    except ValueError as e:
        out.append(str(e))
    return out
