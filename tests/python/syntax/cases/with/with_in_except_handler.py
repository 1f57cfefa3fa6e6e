# min: 3.8
import contextlib

def main():
    log = []
    try:
        raise OSError("x")
    except OSError as e:
        with contextlib.suppress(ValueError):
            log.append(str(e))
            raise ValueError()
        log.append("after with")
    return log
