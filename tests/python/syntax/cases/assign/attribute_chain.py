# min: 3.8
class Node:
    def __init__(self):
        self.child = None
        self.value = 0

def main():
    n = Node()
    n.child = Node()
    n.child.value = 7
    n.child.child = Node()
    n.child.child.value = n.child.value + 1
    return n.child.child.value
