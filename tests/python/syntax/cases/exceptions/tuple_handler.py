# min: 3.8
def main():
    out = []
    for bad in (lambda: int("q"), lambda: None + 1, lambda: 1):
        try:
            out.append(bad())
        except (ValueError, TypeError) as exc:
            out.append(type(exc).__name__)
    return out
