# min: 3.8
def main():
    grid = []
    for i in range(3):
        row = []
        for j in range(3):
            row.append(i * j)
        grid.append(row)
    return grid
