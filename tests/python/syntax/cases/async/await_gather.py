# min: 3.8
import asyncio

async def square(x):
    await asyncio.sleep(0)
    return x * x

async def main():
    return await asyncio.gather(*(square(i) for i in range(4)))
