# min: 3.8
def main():
    for x in range(4):
        pass
    return x
