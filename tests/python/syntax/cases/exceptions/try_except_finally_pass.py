# min: 3.8
class Conn:
    def __init__(self, code):
        self.code = code
        self.log = []

    def docmd(self, cmd):
        self.log.append(cmd)
        if self.code is None:
            raise ValueError("gone")
        return self.code, "bye"

    def close(self):
        self.log.append("close")

    def quit(self):
        try:
            code, message = self.docmd("QUIT")
            if code != 221:
                raise KeyError(code, message)
        except ValueError:
            pass
        finally:
            self.close()


def main():
    out = []
    for code in (221, None, 500):
        c = Conn(code)
        try:
            c.quit()
        except KeyError as e:
            out.append(e.args)
        out.append(c.log)
    return out
