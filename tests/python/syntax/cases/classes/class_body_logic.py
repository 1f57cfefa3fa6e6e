# min: 3.8
class Flags:
    values = []
    for i in range(3):
        values.append(1 << i)
    if len(values) > 2:
        big = True
    else:
        big = False
    del i

def main():
    return Flags.values, Flags.big, hasattr(Flags, "i")
