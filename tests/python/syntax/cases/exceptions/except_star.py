# min: 3.11
def main():
    out = []
    try:
        raise ExceptionGroup("group", [ValueError(1), TypeError(2), ValueError(3)])
    except* ValueError as eg:
        out.append(("value", [e.args for e in eg.exceptions]))
    except* TypeError as eg:
        out.append(("type", len(eg.exceptions)))
    return out
