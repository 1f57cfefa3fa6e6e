# min: 3.8
def f(rows):
    try:
        for r in rows:
            while r:
                if r == 2:
                    return "found two"
                r -= 1
    finally:
        print("cleanup")
    return "none"

def main():
    return f([1, 3]), f([1])
