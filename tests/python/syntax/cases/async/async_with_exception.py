# min: 3.8
class ACtx:
    async def __aenter__(self):
        return self
    async def __aexit__(self, kind, value, tb):
        self.kind = kind.__name__
        return True

async def main():
    c = ACtx()
    async with c:
        raise OSError()
    return c.kind
