# min: 3.8
def find(matrix, t):
    for r, row in enumerate(matrix):
        for c, v in enumerate(row):
            if v == t:
                return r, c
    return None

def main():
    return find([[1, 2], [3, 4]], 3), find([[1]], 9)
