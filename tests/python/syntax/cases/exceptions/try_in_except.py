# min: 3.8
def main():
    log = []
    try:
        raise OSError("a")
    except OSError:
        try:
            raise ValueError("b")
        except ValueError as inner:
            log.append(inner.args)
        log.append("after inner")
    return log
