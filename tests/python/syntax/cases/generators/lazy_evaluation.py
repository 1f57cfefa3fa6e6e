# min: 3.8
def main():
    log = []
    def gen():
        log.append("start")
        yield 1
        log.append("resume")
    g = gen()
    before = list(log)
    next(g)
    return before, log
