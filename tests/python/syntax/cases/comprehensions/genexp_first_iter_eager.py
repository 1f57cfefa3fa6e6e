# min: 3.8
def main():
    log = []
    def src():
        log.append("evaluated")
        return [1, 2]
    g = (x for x in src())
    return log[:], list(g)
