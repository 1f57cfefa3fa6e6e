# min: 3.8
async def agen():
    for i in range(6):
        yield i

async def main():
    out = []
    async for v in agen():
        if v % 2:
            continue
        out.append(v)
    return out
