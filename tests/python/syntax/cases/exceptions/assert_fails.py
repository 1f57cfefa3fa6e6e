# min: 3.8
def main():
    try:
        assert 1 + 1 == 3, "math"
    except AssertionError as e:
        return e.args
