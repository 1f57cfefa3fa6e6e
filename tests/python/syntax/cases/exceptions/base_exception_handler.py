# min: 3.8
def main():
    try:
        raise SystemExit(3)
    except BaseException as e:
        return type(e).__name__, e.code
