# min: 3.8
def main():
    log = []
    for i in range(3):
        try:
            log.append(i)
        finally:
            log.append("cleanup")
        if i == 1:
            continue
        log.append("after")
    return log
