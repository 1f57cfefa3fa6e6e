# min: 3.8
def divmod2(a, b):
    return a // b, a % b

def main():
    q, r = divmod2(17, 5)
    return q, r
