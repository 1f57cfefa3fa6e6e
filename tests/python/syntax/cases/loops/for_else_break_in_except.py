# min: 3.8
class A:
    x = 1


class B:
    y = 2


def lookup(names, obj, mro):
    results = []
    for key in names:
        try:
            value = getattr(obj, key)
        except AttributeError:
            for base in mro:
                if key in base.__dict__:
                    value = base.__dict__[key]
                    break
            else:
                continue
        results.append((key, value))
    return results


def main():
    return lookup(["x", "y", "z", "__class__"], object(), [A, B])
