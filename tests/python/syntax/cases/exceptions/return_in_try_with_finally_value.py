# min: 3.8
def f(log):
    x = 1
    try:
        return x
    finally:
        x = 2
        log.append(x)

def main():
    log = []
    return f(log), log
