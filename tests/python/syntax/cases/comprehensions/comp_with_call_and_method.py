# min: 3.8
def main():
    words = ["  hi ", "there  "]
    return [w.strip().title() for w in words if w.strip()]
