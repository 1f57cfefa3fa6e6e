# min: 3.8
def main():
    return [x if x > 2 else -x for x in range(5)]
