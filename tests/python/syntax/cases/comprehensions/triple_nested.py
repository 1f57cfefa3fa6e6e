# min: 3.8
def main():
    return [a + b + c for a in "xy" for b in "12" if b != "2" or a == "y" for c in "!?"]
