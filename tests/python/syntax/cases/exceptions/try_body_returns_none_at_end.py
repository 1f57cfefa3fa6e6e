# min: 3.8
def f(k):
    try:
        if k:
            raise ValueError(k)
        return None
    except ValueError:
        return 7


def main():
    return f(0), f(1)
