# min: 3.8
def main():
    return max((len(w), w) for w in "a bb ccc".split()), any(c.isdigit() for c in "ab3")
