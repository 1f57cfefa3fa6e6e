# min: 3.8
# An if/else whose arms both return ends the function: 3.8/3.9 keep a dead
# `return None` after it, which a flat `if c: return a` / `return b` has not.
def sign(x):
    if x < 0:
        return -1
    else:
        return 1

def pick(x):
    if x:
        return "x"
    if x is None:
        return "none"
    return "other"

def nested(a, b):
    if a:
        if b:
            return 1
        return 2
    else:
        if b < 0:
            raise ValueError(b)
        return 3

def main():
    return [sign(-3), sign(2), pick(1), pick(None), pick(0), nested(1, 0), nested(1, 1), nested(0, 1)]
