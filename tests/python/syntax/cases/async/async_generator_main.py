# min: 3.8
async def main():
    yield "first"
    for i in range(2):
        yield i
