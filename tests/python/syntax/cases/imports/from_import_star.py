# min: 3.8
from string import *

def main():
    return ascii_lowercase[:3], digits[-1]
