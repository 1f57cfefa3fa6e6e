# min: 3.8
def f(x, y):
    if not x in y:
        return "absent"
    if not x is None:
        return "present"

def main():
    return f(1, [2]), f(2, [2])
