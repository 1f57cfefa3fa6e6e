# min: 3.8
def main():
    x = 5
    y = "z"
    return f"{x=}", f"{y = !r}", f"{x * 2=:>4}"
