# min: 3.8
def main():
    return [a or b for a in (0, 2, "") for b in ("x", None)]
