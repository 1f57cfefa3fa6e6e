# min: 3.8
def f(items):
    if not items:
        return "empty"
    return "full"

def main():
    return f([]), f([1])
