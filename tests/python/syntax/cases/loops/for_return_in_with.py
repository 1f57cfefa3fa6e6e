# min: 3.8
class Ctx:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append("enter")
        return self
    def __exit__(self, *exc):
        self.log.append("exit")
        return False

def f(log):
    for i in range(5):
        with Ctx(log):
            if i == 1:
                return i
    return None

def main():
    log = []
    return f(log), log
