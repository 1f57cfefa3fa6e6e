# min: 3.8
import asyncio

def make(delta):
    async def add(x):
        await asyncio.sleep(0)
        return x + delta
    return add

async def main():
    return await make(5)(1)
