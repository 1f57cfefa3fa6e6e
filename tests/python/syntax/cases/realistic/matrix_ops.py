# min: 3.8
def matmul(a, b):
    rows, inner, cols = len(a), len(b), len(b[0])
    if any(len(r) != inner for r in a):
        raise ValueError("shape mismatch")
    return [[sum(a[i][k] * b[k][j] for k in range(inner)) for j in range(cols)] for i in range(rows)]

def transpose(m):
    return [list(col) for col in zip(*m)]

def main():
    a = [[1, 2], [3, 4]]
    return matmul(a, transpose(a)), transpose(a)
