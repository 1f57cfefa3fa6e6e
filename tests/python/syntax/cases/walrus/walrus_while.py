# min: 3.8
def main():
    chunks = iter(["ab", "cd", ""])
    out = []
    while (chunk := next(chunks)):
        out.append(chunk)
    return out
