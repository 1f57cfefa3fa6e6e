# min: 3.8
cache = {}


def remember(d):
    global cache
    cache[d] = len(cache)
    return cache.get(d)


def main():
    return remember("a"), remember("b"), sorted(cache)
