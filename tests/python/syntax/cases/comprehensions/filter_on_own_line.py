# min: 3.8
def names(actions):
    return [a
            for a in actions
            if a.startswith("-")]


def total(xs):
    return sum(x for x in xs
               if x % 2)


def index(xs):
    return {x: i for i, x in enumerate(xs)
            if x}


def main():
    return names(["-a", "b", "--c"]), total(range(10)), index(["", "p", "q"])
