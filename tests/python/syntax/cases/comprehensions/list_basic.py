# min: 3.8
def main():
    return [x * 2 for x in range(5)]
