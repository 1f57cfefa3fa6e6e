# min: 3.8
count: int = 3
name: str
items: list = []

def main():
    return count, sorted(__annotations__), "name" in globals()
