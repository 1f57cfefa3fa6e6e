# min: 3.8
def insert_sep(digits, lengths, min_width=1, sep=","):
    groups = []
    for l in lengths:
        if l <= 0:
            raise ValueError("group length should be positive")
        l = min(max(len(digits), min_width, 1), l)
        groups.append("0" * (l - len(digits)) + digits[-l:])
        digits = digits[:-l]
        min_width -= l
        if not digits and min_width <= 0:
            break
        min_width -= len(sep)
    else:
        l = max(len(digits), min_width, 1)
        groups.append("0" * (l - len(digits)) + digits[-l:])
    return sep.join(reversed(groups))


def main():
    out = [insert_sep("123456", [3, 3, 3]), insert_sep("1234567", [3]), insert_sep("12", [3, 3], 8)]
    try:
        insert_sep("1", [0])
    except ValueError as e:
        out.append(e.args)
    return out
