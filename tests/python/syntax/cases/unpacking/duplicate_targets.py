# min: 3.8
def encoding_of(code):
    _, _, encoding = code.partition(".")
    return encoding


def columns(rows):
    out = []
    for tag, _, _, a, b in rows:
        out.append((tag, a + b))
    return out


def main():
    x, x = 1, 2
    return encoding_of("en_US.UTF-8"), columns([("t", 0, 0, 1, 2), ("u", 9, 9, 3, 4)]), x
