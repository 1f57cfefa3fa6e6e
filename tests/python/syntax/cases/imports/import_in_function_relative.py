# min: 3.8
# package: syntaxpkg
def main():
    from .helpers import double
    from . import sub
    return double(5), sub.SUBVALUE
