# min: 3.8
def grade(n):
    if n >= 90:
        g = "A"
    elif n >= 80:
        g = "B"
    elif n >= 70:
        g = "C"
    else:
        g = "F"
    return g

def main():
    return [grade(n) for n in (95, 85, 75, 10)]
