# min: 3.8
def main():
    stack = [1, 2, 3]
    seen = []
    while not len(stack) == 0:
        seen.append(stack.pop())
    return seen
