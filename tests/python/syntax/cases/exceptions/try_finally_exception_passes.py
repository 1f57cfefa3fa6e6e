# min: 3.8
def main():
    log = []
    try:
        try:
            raise IndexError(3)
        finally:
            log.append("cleanup")
    except IndexError as e:
        log.append(e.args)
    return log
