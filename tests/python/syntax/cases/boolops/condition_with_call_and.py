# min: 3.8
def ok(x):
    print("ok", x)
    return x > 1

def main():
    if ok(1) and ok(2):
        return "both"
    if ok(3) or ok(0):
        return "either"
