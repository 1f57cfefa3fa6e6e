# min: 3.8
def skip_comments(lines):
    it = iter(lines)
    line = next(it, "")
    while line[:1] == "#" or not line.strip():
        line = next(it, "")
        if not line:
            break
    return line.strip()


def remove_dirs(path, removed):
    head, _, tail = path.rpartition("/")
    while head and tail:
        try:
            if head.endswith("x"):
                raise OSError(head)
            removed.append(head)
        except OSError:
            break
        head, _, tail = head.rpartition("/")
    return removed


def main():
    return (skip_comments(["# a", "  ", "value ", "z"]), skip_comments(["#"]),
            remove_dirs("a/b/c/d", []), remove_dirs("a/bx/c", []))
