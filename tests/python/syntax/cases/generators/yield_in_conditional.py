# min: 3.8
def main():
    for i in range(5):
        if i % 2:
            yield i
        elif i == 4:
            yield "four"
