# min: 3.8
def main():
    name, n = "x", 3
    return f"{name} has {n} items"
