# min: 3.8
def main():
    res = []
    for word in ["aa", "bbb", "c"]:
        n = len(word)
        while n:
            n -= 1
            if n == 1:
                continue
            res.append((word, n))
    return res
