# min: 3.8
# package: syntaxpkg.sub
from .. import helpers
from ..helpers import NAME
from . import leaf
from .leaf import LEAF

def main():
    return helpers.NAME, NAME, leaf.leaf(), LEAF
