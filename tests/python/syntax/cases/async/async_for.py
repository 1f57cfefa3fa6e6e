# min: 3.8
class Counter:
    def __init__(self, n):
        self.i, self.n = 0, n
    def __aiter__(self):
        return self
    async def __anext__(self):
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        return self.i

async def main():
    out = []
    async for v in Counter(3):
        out.append(v)
    return out
