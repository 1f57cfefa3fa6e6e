# min: 3.10
def main():
    out = []
    for token in ["a", "b", "stop", "c"]:
        match token:
            case "stop":
                break
            case "b":
                continue
            case other:
                out.append(other)
    return out
