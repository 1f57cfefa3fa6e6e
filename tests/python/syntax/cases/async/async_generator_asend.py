# min: 3.8
async def echo():
    received = []
    while True:
        v = yield len(received)
        if v is None:
            break
        received.append(v)

async def main():
    g = echo()
    first = await g.__anext__()
    second = await g.asend("a")
    third = await g.asend("b")
    await g.aclose()
    return first, second, third
