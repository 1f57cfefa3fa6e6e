# min: 3.8
class O:
    pass

def main():
    o = O()
    o.x = 1
    o.y = 2
    del o.x
    return sorted(vars(o))
