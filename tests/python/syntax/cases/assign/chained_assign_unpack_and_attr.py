# min: 3.8
class O:
    pass

def main():
    o = O()
    o.pair = (a, b) = [x, y] = 1, 2
    return o.pair, a, b, x, y
