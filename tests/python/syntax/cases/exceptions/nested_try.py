# min: 3.8
def main():
    log = []
    try:
        try:
            raise ValueError("inner")
        except ValueError as e:
            log.append(e.args[0])
            raise TypeError("outer")
    except TypeError as e:
        log.append(e.args[0])
    return log
