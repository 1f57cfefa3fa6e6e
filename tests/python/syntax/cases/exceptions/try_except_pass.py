# min: 3.8
def main():
    d = {}
    try:
        d["a"] += 1
    except KeyError:
        pass
    return d
