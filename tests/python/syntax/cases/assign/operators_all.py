# min: 3.8
def main():
    a, b = 7, 3
    return (a + b, a - b, a * b, a / b, a // b, a % b, a ** b, a << b, a >> b, a & b, a | b,
            a ^ b, -a, +a, ~a, not a, a < b, a <= b, a == b, a != b, a > b, a >= b)
