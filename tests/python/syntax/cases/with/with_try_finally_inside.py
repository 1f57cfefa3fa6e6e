# min: 3.8
import contextlib

def main():
    log = []
    with contextlib.ExitStack() as stack:
        stack.callback(log.append, "callback")
        try:
            log.append("body")
        finally:
            log.append("finally")
    return log
