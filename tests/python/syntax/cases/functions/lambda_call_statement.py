# min: 3.8
hooks = []
hooks.append(lambda: "module")


def register(func, *arg, **kwargs):
    hooks.append(lambda: func(*arg, **kwargs))
    list(map(lambda h: h, hooks))
    lambda: 0


def main():
    register(max, 3, 7)
    return [h() for h in hooks]
