# min: 3.10
G = None

def set_global(v):
    global G
    match v:
        case [G, *_]:
            return "first"
        case G:
            return "any"

def closure(v):
    match v:
        case {"x": x} if x:
            return lambda: x
        case (x, y):
            def inner():
                nonlocal x
                x = x + y
                return x
            return inner
    return lambda: None

class C:
    match 3:
        case int(n) if n > 2:
            K = n

def main():
    return set_global([1, 2]), G, set_global(7), G, closure({"x": 4})(), closure((1, 2))(), C.K
