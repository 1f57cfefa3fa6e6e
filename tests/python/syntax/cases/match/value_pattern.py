# min: 3.10
import enum

class Color(enum.Enum):
    RED = 1
    GREEN = 2

def f(c):
    match c:
        case Color.RED:
            return "stop"
        case Color.GREEN:
            return "go"

def main():
    return f(Color.RED), f(Color.GREEN), f(3)
