# min: 3.8
class CountCalls:
    def __init__(self, fn):
        self.fn = fn
        self.calls = 0
    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.fn(*args, **kwargs)

@CountCalls
def work(x):
    return x + 1

def main():
    work(1)
    return work(2), work.calls
