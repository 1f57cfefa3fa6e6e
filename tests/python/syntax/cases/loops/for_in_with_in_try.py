# min: 3.8
import contextlib

def main():
    log = []
    try:
        with contextlib.suppress(IndexError):
            for i in range(5):
                if i == 3:
                    [][i]
                log.append(i)
    finally:
        log.append("end")
    return log
