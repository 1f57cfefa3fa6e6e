# min: 3.8
def tokens(text):
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch.isdigit():
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            yield ("num", int(text[i:j]))
            i = j
        elif ch in "+-*/()":
            yield ("op", ch)
            i += 1
        else:
            raise SyntaxError(f"unexpected {ch!r} at {i}")

def main():
    out = list(tokens("12 + (3*45)"))
    try:
        list(tokens("1 $"))
    except SyntaxError as e:
        out.append(e.args[0])
    return out
