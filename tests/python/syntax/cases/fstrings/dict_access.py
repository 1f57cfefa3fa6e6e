# min: 3.8
def main():
    d = {"key": "value"}
    return f"{d['key']}", f'{d["key"]!r:>10}'
