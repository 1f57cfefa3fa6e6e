# min: 3.8
def main():
    width, prec = 10, 3
    value = 2.718281
    return f"[{value:{width}.{prec}f}]", f"{'s':^{width}}"
