# min: 3.8
def main():
    return b"bytes\x00\xff", "tab\tnew\nline", r"raw\n", "unicode \u00e9 \U0001F600", 'q"uote', "q'uote"
