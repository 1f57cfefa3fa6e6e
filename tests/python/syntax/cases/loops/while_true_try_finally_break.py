# min: 3.8
def main():
    log = []
    n = 0
    while True:
        try:
            n += 1
            if n == 3:
                break
        finally:
            log.append(n)
    return log
