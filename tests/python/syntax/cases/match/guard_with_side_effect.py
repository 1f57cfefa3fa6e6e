# min: 3.10
def main():
    log = []
    def check(v):
        log.append(v)
        return v > 1
    for x in (1, 2):
        match x:
            case n if check(n):
                log.append("big")
            case _:
                log.append("small")
    return log
