# min: 3.8
def parse(lines):
    section = None
    result = {}
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = result.setdefault(line[1:-1], {})
        elif "=" in line:
            if section is None:
                raise ValueError(f"key outside section: {line!r}")
            key, _, value = line.partition("=")
            section[key.strip()] = value.strip()
        else:
            raise ValueError("bad line " + line)
    return result

def main():
    return parse(["# c", "[a]", "x = 1", "", "[b]", "y=2"])
