# min: 3.8
def main():
    raise LookupError("escaped", 42)
