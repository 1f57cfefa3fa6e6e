# min: 3.8
calls = []


def g():
    calls.append('g')


def k():
    calls.append('k')


def a6(x):
    if x:
        if x.a:
            raise ValueError
        else:
            g()
    k()

def runcall(*args, **kwds):
    if len(args) >= 2:
        self, func, *args = args
    elif not args:
        raise TypeError("x")
    elif 'func' in kwds:
        func = kwds.pop('func')
    else:
        raise TypeError('y')
    return func


class X:
    a = 0


def main():
    out = [a6(None), a6(X()), runcall(1, 2), runcall(1, func=3)]
    for args in ((), (1,)):
        try:
            runcall(*args)
        except TypeError as e:
            out.append(e.args)
    try:
        X.a = 1
        a6(X())
    except ValueError:
        out.append("raised")
    return out, calls
