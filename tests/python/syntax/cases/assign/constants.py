# min: 3.8
def main():
    return (1, -1, 1.0, -0.0, 1e100, 1j, True, None, ..., "s", b"b", (1, (2, 3)), frozenset({1}))
