# min: 3.8
SQUARES = [i * i for i in range(4)]
LOOKUP = {i: s for i, s in enumerate(SQUARES)}

def main():
    return SQUARES, LOOKUP
