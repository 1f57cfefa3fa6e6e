# min: 3.8
async def agen():
    for i in "abca":
        yield i

async def main():
    return sorted({c async for c in agen()}), {c: i async for i, c in aenum(agen())}

async def aenum(it):
    i = 0
    async for v in it:
        yield i, v
        i += 1
