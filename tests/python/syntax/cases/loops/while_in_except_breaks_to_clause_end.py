# min: 3.8
def drain(items, log):
    for item in items:
        try:
            log.append(int(item))
        except ValueError:
            n = 0
            while n < len(item):
                if item[n] == "!":
                    log.append(("bang", n))
                    break
                n += 1
            else:
                continue
        log.append("after")
    return log


def main():
    return drain(["1", "x", "a!b", "2", "!!"], [])
