# min: 3.8
def main():
    x = 3.5
    return f"{x}", f"{x!r}", f"{x:g}"
