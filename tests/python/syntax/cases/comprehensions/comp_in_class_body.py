# min: 3.8
class Table:
    size = 3
    rows = [i for i in range(3)]
    names = {n: n.upper() for n in ("a", "b")}

def main():
    return Table.rows, Table.names
