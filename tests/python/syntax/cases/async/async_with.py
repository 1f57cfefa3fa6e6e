# min: 3.8
class ACtx:
    def __init__(self, log):
        self.log = log
    async def __aenter__(self):
        self.log.append("aenter")
        return "resource"
    async def __aexit__(self, *exc):
        self.log.append("aexit")
        return False

async def main():
    log = []
    async with ACtx(log) as r:
        log.append(r)
    return log
