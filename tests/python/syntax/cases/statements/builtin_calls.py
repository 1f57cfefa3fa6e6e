# min: 3.8
def main():
    return (abs(-2), divmod(7, 2), isinstance(1, (int, str)), getattr(1, "real"),
            sorted({3, 1, 2}, reverse=True), list(map(str, [1, 2])), dict(a=1))
