# min: 3.8
import collections
import re

def top_words(text, n=3):
    words = re.findall(r"[a-z']+", text.lower())
    counts = collections.Counter(w for w in words if len(w) > 2)
    return [w for w, _ in counts.most_common(n)]

def main():
    return top_words("The cat and the hat. The cat sat; a cat ran and the end.")
