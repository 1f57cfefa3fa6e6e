# min: 3.10
def f(seq):
    match seq:
        case [first, *_, last]:
            return first, last
        case _:
            return None

def main():
    return f([1, 2, 3, 4]), f([1])
