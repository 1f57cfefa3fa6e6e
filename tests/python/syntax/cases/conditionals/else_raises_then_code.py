# min: 3.8
class Conn:
    def __init__(self):
        self.log = []

    def start(self, typ, name):
        if typ == "OK":
            self.log.append("tls")
            self.log.append(name)
        else:
            raise ValueError("could not establish TLS session")
        return len(self.log), typ


def main():
    c = Conn()
    out = [c.start("OK", "a")]
    try:
        c.start("NO", "b")
    except ValueError as e:
        out.append(e.args)
    return out, c.log
