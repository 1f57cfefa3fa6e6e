# min: 3.8
def main():
    log = []
    try:
        log.append("body")
    finally:
        log.append("finally")
    return log
