# min: 3.8
def main():
    d = {"k": [1, 2]}
    return len(d.get("k") or []) and d["k"][0], d.get("z") and d["z"][0]
