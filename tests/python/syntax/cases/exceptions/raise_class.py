# min: 3.8
def main():
    try:
        raise StopIteration
    except StopIteration as s:
        return type(s).__name__, s.args
