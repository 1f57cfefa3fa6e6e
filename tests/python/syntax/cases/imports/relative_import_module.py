# min: 3.8
# package: syntaxpkg
from . import helpers

def main():
    return helpers.double(21), helpers.NAME
