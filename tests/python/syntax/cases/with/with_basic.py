# min: 3.8
class Ctx:
    def __init__(self, name, log):
        self.name, self.log = name, log
    def __enter__(self):
        self.log.append("enter " + self.name)
        return self.name.upper()
    def __exit__(self, kind, value, tb):
        self.log.append(("exit", self.name, kind.__name__ if kind else None))
        return False

def main():
    log = []
    with Ctx("a", log) as v:
        log.append(v)
    return log
