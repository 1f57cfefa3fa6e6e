# min: 3.8
# 3.8/3.9 thread an elif's false jump to the `pass` arm's own jump back to
# the loop head, which two arms then share (argparse's _format_actions_usage).
SUPPRESS = "==SUPPRESS=="


class G:
    def __init__(self, actions, required):
        self._group_actions, self.required = actions, required


class A:
    def __init__(self, help, nargs):
        self.help, self.nargs = help, nargs


def usage(actions, groups):
    inserts = {}
    for group in groups:
        try:
            start = actions.index(group._group_actions[0])
        except ValueError:
            continue
        else:
            end = start + len(group._group_actions)
            if actions[start:end] == group._group_actions:
                if not group.required:
                    if start in inserts:
                        inserts[start] += " ["
                    else:
                        inserts[start] = "["
                else:
                    if start in inserts:
                        inserts[start] += " ("
                    if end in inserts:
                        inserts[end] += ")"
                    else:
                        inserts[end] = ")"
                for i in range(start + 1, end):
                    inserts[i] = "|"
    parts = []
    for i, action in enumerate(actions):
        if action.help is SUPPRESS:
            parts.append(None)
            if inserts.get(i) == "|":
                inserts.pop(i)
            elif inserts.get(i + 1) == "|":
                inserts.pop(i + 1)
        else:
            if action.nargs == 0:
                pass
            parts.append(action.nargs)
    return parts, inserts


def main():
    a = [A(SUPPRESS, 0), A("x", 1), A("y", 0), A(SUPPRESS, 2)]
    return usage(a, [G(a[:2], False), G(a[2:], True), G([A("z", 0)], True)])
