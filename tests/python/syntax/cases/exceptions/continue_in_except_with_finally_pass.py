# min: 3.8
# `continue` from an except clause through an empty finally body.
def f(items, log):
    for x in items:
        try:
            log.append(int(x))
        except ValueError:
            if x:
                continue
            log.append("empty")
        finally:
            pass
        log.append("next")
    return log


def main():
    return f(["1", "a", "", "2"], [])
