# min: 3.8
def main():
    return [(i, j) for i in range(3) for j in range(i)]
