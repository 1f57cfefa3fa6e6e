# min: 3.8
def main():
    factor = 3
    offsets = [1, 2]
    return [x * factor + o for x in range(3) for o in offsets]
