# min: 3.8
def f():
    try:
        return "try"
    finally:
        print("finally runs")

def main():
    return f()
