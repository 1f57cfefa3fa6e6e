# min: 3.8
"""Module docstring."""

def main():
    return __doc__
