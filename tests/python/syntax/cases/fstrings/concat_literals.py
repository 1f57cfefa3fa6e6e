# min: 3.8
def main():
    n = 2
    return "plain " f"fmt {n}" " end", ("a" "b")
