# min: 3.8
async def agen():
    yield 1
    raise ValueError("stop")

async def main():
    log = []
    try:
        async for v in agen():
            log.append(v)
    except ValueError as e:
        log.append(e.args)
    finally:
        log.append("done")
    return log
