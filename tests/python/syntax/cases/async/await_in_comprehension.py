# min: 3.8
import asyncio

async def double(x):
    await asyncio.sleep(0)
    return 2 * x

async def main():
    return [await double(x) for x in range(3)]
