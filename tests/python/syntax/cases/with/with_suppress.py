# min: 3.8
import contextlib

def main():
    out = []
    with contextlib.suppress(KeyError):
        out.append(1)
        {}["x"]
        out.append(2)
    out.append(3)
    return out
