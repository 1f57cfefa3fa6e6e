# min: 3.8
def main():
    return sorted({*"ab", *["c", "d"]} - {"c"})
