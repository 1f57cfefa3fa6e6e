# min: 3.8
total = 10


def outer():
    total = "outer"

    class Inner:
        global total
        total += 1
        seen = total

    def reader():
        global total
        return total

    def closure():
        return total

    return Inner.seen, reader(), closure()


def main():
    return outer(), total
