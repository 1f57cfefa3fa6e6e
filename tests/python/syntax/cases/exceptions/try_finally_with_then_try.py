# min: 3.8
import threading


class Worker:
    def __init__(self, fail):
        self.fail = fail
        self.log = []

    def run(self):
        self.log.append("run")
        if self.fail:
            raise RuntimeError("boom")

    def report(self, exc):
        self.log.append(type(exc).__name__)

    def delete(self):
        self.log.append("delete")

    def bootstrap(self, lock, hook):
        try:
            with lock:
                self.log.append("locked")
            if hook:
                hook(self)
            try:
                self.run()
            except Exception as e:
                self.report(e)
        finally:
            self.delete()


def main():
    out = []
    for fail, hook in ((False, None), (True, lambda w: w.log.append("hook"))):
        w = Worker(fail)
        w.bootstrap(threading.Lock(), hook)
        out.append(w.log)
    return out
