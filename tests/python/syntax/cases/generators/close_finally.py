# min: 3.8
def g(log):
    try:
        yield 1
        yield 2
    finally:
        log.append("closed")

def main():
    log = []
    gen = g(log)
    next(gen)
    gen.close()
    return log
