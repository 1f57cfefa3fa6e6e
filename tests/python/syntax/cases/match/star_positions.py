# min: 3.10
def f(x):
    match x:
        case [*head, 0]:
            return "head", head
        case [1, *mid, 9]:
            return "mid", mid
        case [2, *tail]:
            return "tail", tail
        case [*_, 7, _]:
            return "seven"
        case [3, *_]:
            return "three"
    return "none"

def main():
    return [f(v) for v in ([5, 0], [1, 2, 9], [2, 3], [7, 1], [3, 4], [4], 5)]
