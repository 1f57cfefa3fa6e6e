# min: 3.8
def main():
    fs = []
    for i in range(3):
        def f():
            return i
        fs.append(f)
    return [f() for f in fs]
