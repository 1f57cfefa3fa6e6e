# min: 3.8
def main():
    for i in range(3):
        last = i * 10
    return i, last
