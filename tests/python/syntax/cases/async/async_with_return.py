# min: 3.8
class ACtx:
    def __init__(self, log):
        self.log = log
    async def __aenter__(self):
        return self
    async def __aexit__(self, *exc):
        self.log.append("closed")

async def use(log):
    async with ACtx(log):
        return "inside"

async def main():
    log = []
    return await use(log), log
