# min: 3.8
import asyncio

async def main():
    n = 0
    while n < 3:
        n = await asyncio.sleep(0, result=n + 1)
    return n
