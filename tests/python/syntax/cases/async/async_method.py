# min: 3.8
import asyncio

class Service:
    def __init__(self):
        self.calls = 0
    async def call(self, x):
        self.calls += 1
        await asyncio.sleep(0)
        return x[::-1]

async def main():
    s = Service()
    r = await s.call("abc")
    return r, s.calls
