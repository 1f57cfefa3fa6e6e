# min: 3.8
# `if c: raise ... else: ...`: on 3.8/3.9 the jump over the else stays after the raise.
def get(d, k):
    if k not in d:
        raise KeyError(k)
    else:
        v = d[k]
    return v * 2

def main():
    out = [get({"a": 1}, "a")]
    try:
        get({}, "b")
    except KeyError as e:
        out.append(e.args)
    return out
