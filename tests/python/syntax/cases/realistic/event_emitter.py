# min: 3.8
from collections import defaultdict

class Emitter:
    def __init__(self):
        self._handlers = defaultdict(list)
    def on(self, name):
        def register(fn):
            self._handlers[name].append(fn)
            return fn
        return register
    def emit(self, name, *args, **kwargs):
        return [h(*args, **kwargs) for h in self._handlers.get(name, ())]

def main():
    bus = Emitter()
    @bus.on("add")
    def add(a, b=0):
        return a + b
    @bus.on("add")
    def show(a, b=0):
        return f"{a}+{b}"
    return bus.emit("add", 1, b=2), bus.emit("missing")
