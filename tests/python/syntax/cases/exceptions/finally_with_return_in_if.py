# min: 3.8
class Proc:
    def __init__(self, stdin):
        self.stdin = stdin
        self.log = []

    def wait(self):
        self.log.append("wait")

    def exit(self, exc_type):
        try:
            if self.stdin:
                self.stdin.append("closed")
        finally:
            if exc_type == KeyboardInterrupt:
                self.log.append("interrupted")
                return
            self.wait()


def main():
    out = []
    for stdin, kind in (([], None), (None, KeyboardInterrupt), ([], ValueError)):
        p = Proc(stdin)
        out.append((p.exit(kind), p.log, stdin))
    return out
