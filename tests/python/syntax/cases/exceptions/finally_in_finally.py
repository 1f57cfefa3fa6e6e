# min: 3.8
def main():
    log = []
    try:
        try:
            log.append(1)
        finally:
            log.append(2)
    finally:
        try:
            log.append(3)
        finally:
            log.append(4)
    return log
