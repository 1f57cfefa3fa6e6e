# min: 3.8
def main():
    log = []
    for i in range(5):
        try:
            if i == 2:
                break
            log.append(i)
        finally:
            log.append("f%d" % i)
    return log
