# min: 3.8
from os.path import (
    join,
    basename as base,
    dirname,
)

def main():
    return join("a", "b"), base("/x/y"), dirname("/x/y")
