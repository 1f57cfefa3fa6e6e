# min: 3.8
def parse_all(items):
    out = []
    for it in items:
        try:
            out.append(int(it))
        except ValueError:
            return out, it
    return out, None

def main():
    return parse_all(["1", "2", "x", "3"]), parse_all(["5"])
