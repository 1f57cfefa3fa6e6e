# min: 3.8
import contextlib

class Cache:
    def __init__(self):
        self.data = {}
        self.hits = self.misses = 0
    def get(self, key, compute):
        try:
            value = self.data[key]
        except KeyError:
            self.misses += 1
            value = self.data[key] = compute(key)
        else:
            self.hits += 1
        return value
    @contextlib.contextmanager
    def frozen(self):
        saved = dict(self.data)
        try:
            yield self
        finally:
            self.data = saved

def main():
    c = Cache()
    with c.frozen():
        c.get(2, lambda k: k * k)
        c.get(2, lambda k: k * k)
    c.get(3, lambda k: -k)
    return c.hits, c.misses, c.data
