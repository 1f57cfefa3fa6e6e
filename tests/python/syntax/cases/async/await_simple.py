# min: 3.8
import asyncio

async def compute(x):
    await asyncio.sleep(0)
    return x * 2

async def main():
    return await compute(21)
