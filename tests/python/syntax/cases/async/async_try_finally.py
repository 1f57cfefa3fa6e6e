# min: 3.8
import asyncio

async def work(log, fail):
    try:
        await asyncio.sleep(0)
        if fail:
            raise ValueError("boom")
        return "ok"
    except ValueError as e:
        log.append(e.args[0])
        return "failed"
    finally:
        log.append("cleanup")

async def main():
    log = []
    return await work(log, False), await work(log, True), log
