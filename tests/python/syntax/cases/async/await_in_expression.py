# min: 3.8
import asyncio

async def value(v):
    await asyncio.sleep(0)
    return v

async def main():
    return await value(1) + await value(2) * 3
