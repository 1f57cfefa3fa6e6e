# min: 3.8
from math import sqrt, pi
from os import path as p

def main():
    return sqrt(16), round(pi, 2), p.join("a", "b")
