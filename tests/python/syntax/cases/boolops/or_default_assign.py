# min: 3.8
def f(name=None, items=None):
    name = name or "anon"
    items = items or []
    return name, items

def main():
    return f(), f("bob", [1])
