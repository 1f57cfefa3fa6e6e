# min: 3.8
class O:
    pass

def main():
    o = O()
    d = {}
    o.a, *o.b, d["last"] = range(5)
    return o.a, o.b, d
