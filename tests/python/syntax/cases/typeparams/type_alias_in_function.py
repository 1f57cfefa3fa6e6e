# min: 3.12
def main():
    type Local = list[int]
    return Local.__name__, repr(Local.__value__)
