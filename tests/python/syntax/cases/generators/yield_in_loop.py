# min: 3.8
def squares(n):
    for i in range(n):
        yield i * i

def main():
    return list(squares(5))
