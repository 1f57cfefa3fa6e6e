# min: 3.8
def read_exact(chunks, n):
    data = ""
    while len(data) < n:
        b = chunks.pop(0) if chunks else ""
        if not b:
            raise EOFError("short read")
        data += b
    return data


def find(items, value):
    i = 0
    while i < len(items):
        v = items[i]
        if v == value:
            return i
        i += 1
    return -1


def main():
    print(pick({"a": 2}, "a", None), pick({}, "b", lambda: 7))
    pick({}, "c", None)  # raises: the suite compares the exception too
