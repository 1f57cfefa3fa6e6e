# min: 3.8
def main():
    d = {}
    for d["k"] in "xyz":
        pass
    return d
