# min: 3.8
def main():
    try:
        assert not [1], ("list", 1)
    except AssertionError as e:
        return e.args
