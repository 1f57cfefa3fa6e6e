# min: 3.8
def check(x):
    assert x, "x must be truthy"
    return x

def main():
    try:
        check(0)
    except AssertionError as e:
        return check(1), e.args
