# min: 3.8
import asyncio

async def main():
    f = lambda x: asyncio.sleep(0, result=x)
    return await f("slept")
