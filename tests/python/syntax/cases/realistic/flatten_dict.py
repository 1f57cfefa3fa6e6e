# min: 3.8
def flatten(d, prefix=""):
    out = {}
    for k, v in d.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict) and v:
            out.update(flatten(v, key))
        else:
            out[key] = v
    return out

def main():
    return flatten({"a": {"b": 1, "c": {"d": 2}}, "e": {}, "f": 3})
