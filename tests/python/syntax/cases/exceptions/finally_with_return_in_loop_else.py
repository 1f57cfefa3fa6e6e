# min: 3.8
def f(xs):
    try:
        for x in xs:
            if x:
                return x
        else:
            return "empty"
    finally:
        print("leaving")

def main():
    return f([0, 4]), f([])
