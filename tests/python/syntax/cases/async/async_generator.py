# min: 3.8
import asyncio

async def ticks(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i * 10

async def main():
    return [t async for t in ticks(3)]
