# min: 3.8
class Holder:
    pass

def main():
    h = Holder()
    seen = []
    for h.value in range(3):
        seen.append(h.value)
    return seen, h.value
