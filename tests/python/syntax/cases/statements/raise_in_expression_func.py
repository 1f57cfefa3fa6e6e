# min: 3.8
def fail(msg):
    raise RuntimeError(msg)

def main():
    try:
        return 1 if False else fail("boom")
    except RuntimeError as e:
        return e.args
