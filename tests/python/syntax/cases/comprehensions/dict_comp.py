# min: 3.8
def main():
    return {k: len(k) for k in ("one", "three")}
