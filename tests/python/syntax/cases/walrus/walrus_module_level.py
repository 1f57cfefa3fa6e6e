# min: 3.8
import math

if (root := math.isqrt(50)) > 5:
    KIND = "big"

def main():
    return root, KIND
