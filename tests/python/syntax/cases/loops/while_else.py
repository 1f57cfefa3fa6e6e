# min: 3.8
def f(n):
    i = 0
    while i < n:
        i += 1
    else:
        return ("else", i)

def main():
    return f(3)
