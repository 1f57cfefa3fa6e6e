# min: 3.8
def main():
    return [rest for _, *rest in [(1, 2, 3), (4, 5)]]
