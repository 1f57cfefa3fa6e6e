# min: 3.8
import asyncio

async def produce(queue, n):
    for i in range(n):
        await queue.put(i)
    await queue.put(None)

async def consume(queue):
    total = []
    while (item := await queue.get()) is not None:
        total.append(item * item)
    return total

async def main():
    q = asyncio.Queue()
    _, result = await asyncio.gather(produce(q, 4), consume(q))
    return result
