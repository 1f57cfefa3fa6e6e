# min: 3.8
def main():
    items = [1, 2, 3]
    return f"{len(items)} {items[-1]} {sum(i for i in items)} {'yes' if items else 'no'}"
