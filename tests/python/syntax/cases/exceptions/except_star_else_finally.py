# min: 3.11
def f(fail):
    log = []
    try:
        if fail:
            raise ExceptionGroup("g", [ZeroDivisionError()])
        log.append("body")
    except* ZeroDivisionError:
        log.append("zero")
    else:
        log.append("else")
    finally:
        log.append("finally")
    return log

def main():
    return f(True), f(False)
