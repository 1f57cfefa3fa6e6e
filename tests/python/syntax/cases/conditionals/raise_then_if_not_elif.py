# min: 3.8
# 3.8/3.9 keep a jump after a raise only when an else follows: here none does.
def check(m, n):
    assert m
    if m == 2:
        return "two"
    if n < 0:
        raise ValueError(n)
    if n == 0:
        return "zero"
    return "many"

def main():
    out = [check(2, 1), check(1, 0), check(1, 5)]
    try:
        check(1, -1)
    except ValueError as e:
        out.append(e.args)
    return out
