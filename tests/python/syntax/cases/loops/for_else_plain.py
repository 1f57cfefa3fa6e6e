# min: 3.8
def main():
    log = []
    for i in range(2):
        log.append(i)
    else:
        log.append("else")
    return log
