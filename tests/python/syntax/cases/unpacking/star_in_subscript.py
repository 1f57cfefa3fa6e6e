# min: 3.11
class Grid:
    def __getitem__(self, key):
        return key

def main():
    idx = (1, 2)
    return Grid()[*idx], Grid()[0, *idx]
