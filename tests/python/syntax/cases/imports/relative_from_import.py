# min: 3.8
# package: syntaxpkg
from .helpers import double as dbl, Box
from .sub.leaf import leaf

def main():
    return dbl(4), repr(Box(1)), leaf()
