# min: 3.8
def main():
    parts = ["a", "b", "c"]
    print(*parts, sep=", ", end=".\n")
    return None
