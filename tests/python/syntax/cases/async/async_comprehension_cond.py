# min: 3.8
async def agen():
    for i in range(8):
        yield i

async def main():
    return [i async for i in agen() if i % 3 == 0]
