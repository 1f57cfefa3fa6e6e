# min: 3.8
def main():
    try:
        [][1]
    except IndexError:
        return "index"
