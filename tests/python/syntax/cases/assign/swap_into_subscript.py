# min: 3.8
def pushpop(heap, item):
    if heap and heap[0] < item:
        item, heap[0] = heap[0], item
    return item


def main():
    h = [1, 5, 3]
    return [pushpop(h, 4), h, pushpop([], 2), pushpop([9], 2)]
