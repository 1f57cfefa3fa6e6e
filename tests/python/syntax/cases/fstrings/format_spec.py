# min: 3.8
def main():
    pi = 3.14159
    return f"{pi:.2f}|{42:>6}|{255:#x}|{1234567:,}"
