# min: 3.10
def main():
    match = [1, 2]
    case = "x"
    _ = match, case
    match match:
        case [a, b]:
            return a + b, case
