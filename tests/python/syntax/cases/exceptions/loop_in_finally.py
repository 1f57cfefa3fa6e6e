# min: 3.8
def main():
    log = []
    try:
        pass
    finally:
        for i in range(3):
            if i == 1:
                continue
            log.append(i)
    return log
