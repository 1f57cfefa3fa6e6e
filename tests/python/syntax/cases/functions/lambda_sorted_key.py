# min: 3.8
def main():
    people = [("bob", 30), ("amy", 25), ("cal", 30)]
    return sorted(people, key=lambda p: (-p[1], p[0]))
