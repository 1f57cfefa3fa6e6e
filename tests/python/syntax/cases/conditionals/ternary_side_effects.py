# min: 3.8
def main():
    log = []
    def a():
        log.append("a")
        return 1
    def b():
        log.append("b")
        return 2
    x = a() if log else b()
    y = a() if log else b()
    return x, y, log
