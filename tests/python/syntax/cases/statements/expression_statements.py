# min: 3.8
def main():
    log = []
    log.append
    1 + 2
    "docstring-like"
    log.append(3)
    return log
