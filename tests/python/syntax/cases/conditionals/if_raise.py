# min: 3.8
def check(x):
    if x < 0:
        raise ValueError("negative", x)
    return x * 2

def main():
    try:
        check(-1)
    except ValueError as e:
        return e.args, check(2)
