# min: 3.8
def g(limit):
    i = 0
    while True:
        if i >= limit:
            return "limit"
        yield i
        i += 1

def main():
    return (yield from g(3))
