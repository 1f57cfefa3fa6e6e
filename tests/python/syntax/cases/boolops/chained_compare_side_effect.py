# min: 3.8
def main():
    calls = []
    def v(n):
        calls.append(n)
        return n
    r = v(1) < v(2) < v(0) < v(5)
    return r, calls
