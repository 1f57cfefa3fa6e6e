# min: 3.8
class Units:
    base = 10
    double = base * 2
    table = (base, double)

def main():
    return Units.table
