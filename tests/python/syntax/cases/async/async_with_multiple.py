# min: 3.8
import contextlib

@contextlib.asynccontextmanager
async def tag(log, t):
    log.append("<" + t)
    yield t
    log.append(t + ">")

async def main():
    log = []
    async with tag(log, "a") as a, tag(log, "b") as b:
        log.append(a + b)
    return log
