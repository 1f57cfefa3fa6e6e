# min: 3.8
# `**{...}` whose keys are no identifiers (or not constants) stays a dict:
# `a-b=2` does not compile, and `**{k: v}` is not `**v`.
def show(*args, **kwargs):
    return args, sorted(kwargs.items())

def main():
    k, v = "dyn", 5
    return [show(1, **{"a-b": 2, "c": 3}), show(**{k: v}), show(x=1, **{"y": 2})]
