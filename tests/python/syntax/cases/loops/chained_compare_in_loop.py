# min: 3.8
def find(shortopts, opt):
    for i in range(len(shortopts)):
        if opt == shortopts[i] != ":":
            return shortopts.startswith(":", i + 1)
    raise KeyError(opt)


def main():
    out = [find("ab:c", "b"), find("abc", "a")]
    try:
        find("ab", "z")
    except KeyError as e:
        out.append(e.args)
    return out
