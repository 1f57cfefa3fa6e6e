# min: 3.8
def main():
    v = 1
    return f"{{literal}} {v} {{{v}}}"
