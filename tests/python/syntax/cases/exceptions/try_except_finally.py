# min: 3.8
def f(x, log):
    try:
        log.append(1 // x)
    except ZeroDivisionError:
        log.append("zde")
    finally:
        log.append("fin")
    return log

def main():
    return f(0, []), f(1, [])
