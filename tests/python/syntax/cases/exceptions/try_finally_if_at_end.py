# min: 3.8
class Conn:
    def __init__(self, log):
        self.log = log
        self.file = log
        self.sock = log

    def close(self):
        try:
            file = self.file
            self.file = None
            if file:
                file.append("file")
        finally:
            sock = self.sock
            self.sock = None
            if sock:
                sock.append("sock")


def main():
    log = []
    c = Conn(log)
    c.close()
    c.close()
    return log
