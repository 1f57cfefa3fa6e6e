# min: 3.11
def main():
    hits = []
    try:
        raise ExceptionGroup("g", [KeyError("k")])
    except* KeyError:
        hits.append("key")
    return hits
