# min: 3.8
import contextlib

@contextlib.asynccontextmanager
async def session(log):
    log.append("open")
    yield log
    log.append("close")

async def rows():
    yield 1
    yield 2

async def main():
    log = []
    async with session(log) as s:
        async for r in rows():
            s.append(r)
    return log
