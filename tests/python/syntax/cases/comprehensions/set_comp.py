# min: 3.8
def main():
    return sorted({w.lower() for w in ["A", "a", "B"]})
