# min: 3.8
class O:
    pass

def main():
    o = O()
    d = {}
    x = o.attr = d["k"] = y = 5
    return x, o.attr, d, y
