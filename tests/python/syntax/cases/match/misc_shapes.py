# min: 3.10
import asyncio
import types

NS = types.SimpleNamespace(inner=types.SimpleNamespace(VALUE=42))

class P:
    __match_args__ = ("x", "y")
    def __init__(self, x, y=None):
        self.x, self.y = x, y

def f(v):
    match v:
        case [1 | 2 as head, (3 | 4), *_]:
            return "seq-or", head
        case (_, _):
            return "pair"
        case P(x=_, y=[a, *_]):
            return "kw", a
        case {"a": 1, "b": [x, *_]}:
            return "nested map", x
        case NS.inner.VALUE:
            return "dotted"
        case [*_]:
            return "seq"
    return None

def loop(values):
    out = []
    i = 0
    while i < len(values):
        match values[i]:
            case None:
                break
            case int(k) if k % 2:
                out.append(k)
        i += 1
    out.append(len(out))
    out.reverse()
    return out

async def coro(v):
    match v:
        case [x] if await asyncio.sleep(0, x):
            return await asyncio.sleep(0, ("one", x))
        case _:
            return "other"

def main():
    return ([f(x) for x in ([1, 3, 9], [2, 4], (7, 8), P(0, [5, 6]), {"a": 1, "b": [9]}, 42, [1, 2, 3], 0)],
            loop([1, 2, 3, None]), asyncio.run(coro([1])), asyncio.run(coro(3)))
