# min: 3.8
def main():
    s = "a"
    s += "b"
    s *= 2
    f = 1.5
    f /= 2
    f -= 0.25
    return s, f
