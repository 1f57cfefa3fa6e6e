# min: 3.8
FORMATS = {"a": {"detect": lambda h: h.startswith("a"), "parser": "A"},
           "b": {"detect": lambda h: h.startswith("b"), "parser": "B"}}


def load(header, fmt=None):
    if fmt is None:
        for info in FORMATS.values():
            if info["detect"](header):
                parser = info["parser"]
                break
        else:
            raise ValueError(header)
    else:
        parser = FORMATS[fmt]["parser"]
    return parser.lower()


def main():
    out = [load("abc"), load("bcd"), load("zzz", "a")]
    try:
        load("zzz")
    except ValueError as e:
        out.append(e.args)
    return out
