# min: 3.10
def f(x):
    result = "default"
    match x:
        case 1:
            result = "one"
        case 2:
            result = "two"
    return result

def main():
    return f(1), f(5)
