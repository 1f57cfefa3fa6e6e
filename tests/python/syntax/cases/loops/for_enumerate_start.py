# min: 3.8
def main():
    return {i: ch for i, ch in enumerate("xyz", start=1)}
