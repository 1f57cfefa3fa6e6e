# min: 3.8
def decompress(chunks):
    results = []
    while True:
        data = chunks.pop(0) if chunks else None
        try:
            res = int(data)
        except (TypeError, ValueError):
            if results:
                break
            else:
                raise
        results.append(res)
        if res < 0:
            raise ArithmeticError(res)
        if not chunks:
            break
    return results


def main():
    out = [decompress(["1", "2"]), decompress(["1", "x", "3"])]
    for bad in (["x"], ["-1"]):
        try:
            decompress(bad)
        except (ValueError, ArithmeticError) as e:
            out.append(type(e).__name__)
    return out
