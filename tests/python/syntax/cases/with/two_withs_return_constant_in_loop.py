# min: 3.8
# `return False` inside two with items: the constant is loaded after both
# __exit__ calls, so the return is the body's.
import io


def same(a, b):
    with io.StringIO(a) as fa, io.StringIO(b) as fb:
        while True:
            x, y = fa.read(2), fb.read(2)
            if x != y:
                return False
            if not x:
                return True


def main():
    return same("abcd", "abcd"), same("abcd", "abce"), same("", "")
