# min: 3.12
def main():
    items = {"a": 1}
    return f"{items["a"]} {f"{"nested"}"}"
