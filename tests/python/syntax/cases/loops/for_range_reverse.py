# min: 3.8
def main():
    return [i for i in range(10, 0, -3)], [c for c in reversed("abc")]
