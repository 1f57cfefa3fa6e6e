# min: 3.8
def main():
    s = "abcdefgh"
    return s[1:], s[:2], s[::2], s[1:6:2], s[-3:], s[::-1], s[:], s[slice(2)]
