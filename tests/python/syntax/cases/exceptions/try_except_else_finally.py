# min: 3.8
def f(x):
    log = []
    try:
        v = int(x)
    except ValueError as e:
        log.append("bad")
    else:
        log.append(v)
    finally:
        log.append("done")
    return log

def main():
    return f("3"), f("z")
