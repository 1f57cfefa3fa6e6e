# min: 3.8
import functools

def logged(fn):
    @functools.wraps(fn)
    def wrapper(self, *a):
        self.log.append(fn.__name__)
        return fn(self, *a)
    return wrapper

class Service:
    def __init__(self):
        self.log = []
    @logged
    def run(self, n):
        def helper(k):
            return k * n
        return [helper(k) for k in range(n)]
    @property
    @logged
    def status(self):
        return "ok"

def main():
    s = Service()
    return s.run(3), s.status, s.log
