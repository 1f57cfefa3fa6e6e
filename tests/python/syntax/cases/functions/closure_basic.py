# min: 3.8
def make_counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc

def main():
    c = make_counter()
    c()
    c()
    return c()
