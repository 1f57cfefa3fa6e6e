# min: 3.8
def main():
    return __name__.split(".")[-1]
