# min: 3.8
async def co():
    """Coroutine doc."""
    return 1

def main():
    lam = lambda: "x"
    return co.__doc__, lam.__doc__
