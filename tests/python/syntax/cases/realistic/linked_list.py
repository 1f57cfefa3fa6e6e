# min: 3.8
class Node:
    __slots__ = ("value", "next")
    def __init__(self, value, next=None):
        self.value = value
        self.next = next

class LinkedList:
    def __init__(self, items=()):
        self.head = None
        for item in reversed(list(items)):
            self.head = Node(item, self.head)
    def __iter__(self):
        node = self.head
        while node is not None:
            yield node.value
            node = node.next
    def reverse(self):
        prev, node = None, self.head
        while node:
            node.next, prev, node = prev, node, node.next
        self.head = prev
        return self

def main():
    return list(LinkedList([1, 2, 3]).reverse())
