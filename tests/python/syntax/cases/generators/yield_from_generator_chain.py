# min: 3.8
def leaves(tree):
    if isinstance(tree, list):
        for sub in tree:
            yield from leaves(sub)
    else:
        yield tree

def main():
    return list(leaves([1, [2, [3, 4]], 5]))
