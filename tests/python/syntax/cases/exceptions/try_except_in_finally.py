# min: 3.8
def main():
    log = []
    try:
        log.append("body")
    finally:
        try:
            raise KeyError("in finally")
        except KeyError as e:
            log.append(e.args[0])
    return log
