# min: 3.8
# package: syntaxpkg
from .helpers import *

def main():
    return double(3), NAME, "_hidden" in globals()
