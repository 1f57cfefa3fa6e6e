# min: 3.8
def f(a, b):
    try:
        if a:
            return 1
    finally:
        if b:
            return 2


def main():
    return [f(a, b) for a in (0, 1) for b in (0, 1)]
