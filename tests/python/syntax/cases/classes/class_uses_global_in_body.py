# min: 3.8
counter = 0

class Tracked:
    global counter
    counter += 1
    local = counter

def main():
    return counter, Tracked.local
