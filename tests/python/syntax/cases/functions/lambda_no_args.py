# min: 3.8
def main():
    f = lambda: "constant"
    return f()
