# min: 3.8
# A function whose flow needs the state machine and that has a local named
# like a builtin the machine uses only for other code (object): it still
# becomes a machine. (pydoc's docmodule has a variable `object`.)
def f(a, b):
    object = []
    t = 0
    for i in range(a):
        for j in range(b):
            if i * j > 6:
                return t, object
            while j < 3:
                j += 1
                if j == 2:
                    break
            else:
                continue
            object.append(j)
            t += j
    return t, object


def main():
    return [f(a, b) for a in range(4) for b in range(0, 6, 2)]
