# min: 3.8
def main():
    s = "a'b"
    return f"{s!r} {s!s} {s!a} {'é'!a}"
