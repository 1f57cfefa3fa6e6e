# min: 3.8
def main():
    grid = [[0, 0], [0, 0]]
    i = 1
    grid[i][i - 1] += 5
    grid[0][i] |= 3
    return grid
