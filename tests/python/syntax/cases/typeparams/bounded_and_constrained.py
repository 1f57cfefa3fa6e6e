# min: 3.12
def clamp[N: (int, float)](x: N, lo: N, hi: N) -> N:
    return max(lo, min(x, hi))

class Sorter[K: str]:
    pass

def main():
    n = clamp.__type_params__[0]
    k = Sorter.__type_params__[0]
    return clamp(15, 0, 10), n.__constraints__, k.__bound__
