# min: 3.8
# `finally: pass` must stay: a try without a handler or finally does not compile.
log = []

def f(x):
    for n in x:
        try:
            try:
                log.append(10 // n)
            except ZeroDivisionError as e:
                log.append(type(e).__name__)
        finally:
            pass
    return log

def main():
    return f([1, 0, 5])
