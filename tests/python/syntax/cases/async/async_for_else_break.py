# min: 3.8
async def agen():
    for i in range(10):
        yield i

async def main():
    out = []
    async for v in agen():
        if v == 3:
            break
        out.append(v)
    else:
        out.append("else")
    async for v in agen():
        if v > 100:
            break
    else:
        out.append("second else")
    return out
