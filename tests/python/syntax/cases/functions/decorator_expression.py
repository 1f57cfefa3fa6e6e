# min: 3.9
registry = {}
handlers = [lambda f: registry.setdefault(f.__name__, f) or f]

@handlers[0]
def handler():
    return "handled"

def main():
    return sorted(registry), handler()
