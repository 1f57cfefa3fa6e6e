# min: 3.10
calls = []

def subject(v):
    calls.append(("subject", v))
    return v

def check(v):
    calls.append(("check", v))
    return v == 2

def f(v):
    match subject(v):
        case _ if check(v):
            r = "checked"
        case 1:
            r = "one"
        case _ if not v:
            r = "falsy"
        case [x]:
            r = x
        case _:
            r = None
    return r

def main():
    return [f(v) for v in (2, 1, 0, [5], 9)], calls
