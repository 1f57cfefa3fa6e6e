# min: 3.8
# package: syntaxpkg
from . import VALUE
from .sub import SUBVALUE

def main():
    return VALUE, SUBVALUE
