# min: 3.8
def main():
    data = [1, 2, 3]
    if (n := len(data)) > 2:
        return "long", n
    return "short", n
