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
    out = [read_exact(["ab", "cd", "ef"], 3), find([3, 4, 5], 5), find([], 1)]
    try:
        read_exact(["a"], 5)
    except EOFError as e:
        return out, e.args
