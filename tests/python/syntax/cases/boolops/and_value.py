# min: 3.8
def main():
    return [a and b for a in (0, 1, "") for b in ("x", None)]
